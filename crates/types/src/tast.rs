//! The typed, resolved AST: the type checker's output and lowering's input.
//!
//! Every binding has a unique [`VarId`]; references point at bindings, not
//! names. Operators, negation and numeric-module functions (`f32.sqrt`) are
//! resolved to [`TExpKind::Intrinsic`] applications at concrete types;
//! sections are desugared to lambdas or partial applications.

use parad_base::{FloatType, IntType, PrimType, Span};
pub use parad_syntax::ast::Attr;
use std::fmt;

/// A rigid type parameter (`'a` of a polymorphic function).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeParamId(pub u32);

/// A variable binding (pattern variable, parameter, size parameter, loop
/// variable, local function).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a top-level function in [`TProgram::funs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunId(pub u32);

/// An arithmetic operator in a size expression (`[n * m]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SizeOp {
    Add,
    Sub,
    Mul,
}

impl SizeOp {
    /// The operator as written: `+`, `-`, `*`.
    pub fn symbol(self) -> &'static str {
        match self {
            SizeOp::Add => "+",
            SizeOp::Sub => "-",
            SizeOp::Mul => "*",
        }
    }
}

/// One dimension of an array type, as far as the checker knows it.
/// Sizes are also checked at run time; dimensions serve to infer size
/// parameters that no argument determines (`unflatten`, `split`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Not known statically: `[]`, an existential size, or a dimension
    /// inference could not determine.
    Any,
    /// The value of a size parameter or of an `i64` variable in scope.
    Var(VarId),
    Const(i64),
    /// `a + b`, `a - b` or `a * b`, as written in a type (compared
    /// syntactically).
    Op(SizeOp, Box<Dim>, Box<Dim>),
    /// A size inference variable. Only exists while checking.
    #[doc(hidden)]
    Infer(u32),
    /// A size parameter of a type abbreviation inside the abbreviation's
    /// definition (`n` of `type vec [n] = [n]f32`): while the definition
    /// is checked, the position of its binding in the checker's scope of
    /// type names; in the definition kept, a number unique to the
    /// parameter (`AbbrevParam::Size`), so that the abbreviation can be
    /// used from any scope (`M.vec [3]`). Each use replaces it by the
    /// size argument. Only exists while checking.
    #[doc(hidden)]
    AbbrevParam(u32),
}

impl Dim {
    /// Replaces variables by dimensions (for instantiation).
    pub fn subst_vars(&self, f: &impl Fn(VarId) -> Option<Dim>) -> Dim {
        match self {
            Dim::Var(v) => f(*v).unwrap_or(Dim::Var(*v)),
            Dim::Op(o, a, b) => Dim::Op(*o, Box::new(a.subst_vars(f)), Box::new(b.subst_vars(f))),
            d => d.clone(),
        }
    }
    /// The dimension as written in a type (`n`, `10`, `n + 1`), with
    /// variables named by `name` and unknown parts written `unknown`.
    pub fn show(&self, name: &dyn Fn(VarId) -> String, unknown: &str) -> String {
        match self {
            Dim::Const(c) => c.to_string(),
            Dim::Var(v) => name(*v),
            Dim::Op(o, a, b) => {
                let o = o.symbol();
                let part = |d: &Dim| match d {
                    Dim::Op(..) => format!("({})", d.show(name, unknown)),
                    _ => d.show(name, unknown),
                };
                format!("{} {o} {}", part(a), part(b))
            }
            Dim::Any | Dim::Infer(_) | Dim::AbbrevParam(_) => unknown.to_string(),
        }
    }

    /// The variables a dimension mentions.
    pub fn vars(&self, out: &mut Vec<VarId>) {
        match self {
            Dim::Var(v) => out.push(*v),
            Dim::Op(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            _ => {}
        }
    }
}

/// A type. Arrays carry their dimensions ([`Dim`]), which the checker
/// uses to infer sizes; equality of sizes is checked at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Prim(PrimType),
    /// `[d1]…[dn]elem`, outermost dimension first (never empty); in a
    /// checked program `elem` is never an array.
    Array(Box<Type>, Vec<Dim>),
    /// `(t1, t2, …)`; the unit type is the empty tuple.
    Tuple(Vec<Type>),
    /// Fields sorted by name.
    Record(Vec<(String, Type)>),
    Arrow(Box<Type>, Box<Type>),
    /// `acc t`: an accumulator of the array type `t` (`intrinsics.acc`),
    /// a write-only view of an array that `scatter_stream`/`hist_stream`
    /// pass to their function and `acc_write` updates.
    Acc(Box<Type>),
    /// A sum type `#a t1 t2 | #b`: constructors sorted by name, each with
    /// its payload types. A value's constructor is its position here.
    Sum(Vec<(String, Vec<Type>)>),
    Param(TypeParamId),
    /// An inference variable. Only exists while checking: every one is
    /// resolved, generalised or defaulted before a program is returned.
    #[doc(hidden)]
    Var(u32),
}

/// The type of a sum type's tag (its constructor's number) in its
/// representation, for a sum of `n` constructors.
pub fn sum_tag_type(n: usize) -> PrimType {
    PrimType::Int(if n <= 127 { IntType::I8 } else { IntType::I32 })
}

impl Type {
    pub fn unit() -> Type {
        Type::Tuple(vec![])
    }
    pub fn i64() -> Type {
        Type::Prim(PrimType::Int(IntType::I64))
    }
    pub fn i32() -> Type {
        Type::Prim(PrimType::Int(IntType::I32))
    }
    pub fn bool() -> Type {
        Type::Prim(PrimType::Bool)
    }
    pub fn arrow(a: Type, b: Type) -> Type {
        Type::Arrow(Box::new(a), Box::new(b))
    }
    /// `[]…t` with `rank` more unknown dimensions, merged with `t`'s own.
    pub fn array(elem: Type, rank: u32) -> Type {
        Type::array_dims(elem, vec![Dim::Any; rank as usize])
    }
    /// `[d1]…[dn]t`, merged with `t`'s own dimensions.
    pub fn array_dims(elem: Type, mut dims: Vec<Dim>) -> Type {
        if dims.is_empty() {
            return elem;
        }
        match elem {
            Type::Array(e, r) => {
                dims.extend(r);
                Type::Array(e, dims)
            }
            e => Type::Array(Box::new(e), dims),
        }
    }
    /// The number of array dimensions (0 for a non-array).
    pub fn rank(&self) -> u32 {
        match self {
            Type::Array(_, ds) => ds.len() as u32,
            _ => 0,
        }
    }
    /// Applies `f` to every dimension.
    pub fn map_dims(&self, f: &impl Fn(&Dim) -> Dim) -> Type {
        match self {
            Type::Prim(_) | Type::Var(_) | Type::Param(_) => self.clone(),
            Type::Array(e, ds) => Type::array_dims(e.map_dims(f), ds.iter().map(f).collect()),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| t.map_dims(f)).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), t.map_dims(f))).collect())
            }
            Type::Arrow(a, b) => Type::arrow(a.map_dims(f), b.map_dims(f)),
            Type::Acc(t) => Type::Acc(Box::new(t.map_dims(f))),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| t.map_dims(f)).collect()))
                    .collect(),
            ),
        }
    }
    /// Calls `f` on every dimension.
    pub fn each_dim(&self, f: &mut impl FnMut(&Dim)) {
        match self {
            Type::Prim(_) | Type::Var(_) | Type::Param(_) => {}
            Type::Array(e, ds) => {
                ds.iter().for_each(&mut *f);
                e.each_dim(f);
            }
            Type::Tuple(ts) => ts.iter().for_each(|t| t.each_dim(f)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| t.each_dim(f)),
            Type::Arrow(a, b) => {
                a.each_dim(f);
                b.each_dim(f);
            }
            Type::Acc(t) => t.each_dim(f),
            Type::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| t.each_dim(f))),
        }
    }
    /// The function type `a1 -> … -> an -> r`.
    pub fn arrows(params: Vec<Type>, ret: Type) -> Type {
        params
            .into_iter()
            .rev()
            .fold(ret, |acc, p| Type::arrow(p, acc))
    }
    pub fn contains_var(&self) -> bool {
        match self {
            Type::Var(_) => true,
            Type::Prim(_) | Type::Param(_) => false,
            Type::Array(e, _) => e.contains_var(),
            Type::Tuple(ts) => ts.iter().any(Type::contains_var),
            Type::Record(fs) => fs.iter().any(|(_, t)| t.contains_var()),
            Type::Arrow(a, b) => a.contains_var() || b.contains_var(),
            Type::Acc(t) => t.contains_var(),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(Type::contains_var)),
        }
    }
    /// Replaces type parameters by types (for instantiation).
    pub fn subst(&self, f: &impl Fn(TypeParamId) -> Option<Type>) -> Type {
        match self {
            Type::Param(p) => f(*p).unwrap_or(Type::Param(*p)),
            Type::Prim(_) | Type::Var(_) => self.clone(),
            Type::Array(e, ds) => Type::array_dims(e.subst(f), ds.clone()),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| t.subst(f)).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), t.subst(f))).collect())
            }
            Type::Arrow(a, b) => Type::arrow(a.subst(f), b.subst(f)),
            Type::Acc(t) => Type::Acc(Box::new(t.subst(f))),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| t.subst(f)).collect()))
                    .collect(),
            ),
        }
    }
}

/// Prints as Futhark writes types, with `[]` for every dimension and type
/// parameters as `'p3` (the checker's diagnostics use the source names).
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::print::write_type(f, self, &|p| format!("'p{}", p.0), &|v| format!("?{v}"))
    }
}

/// A literal's value; its type is the enclosing [`TExp`]'s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// An integer of the expression's integer type (two's complement
    /// value; `u64` values above `i64::MAX` are kept exactly).
    Int(i128),
    Float(f64),
    Bool(bool),
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

/// Where a size parameter's value comes from: dimension `dim` of the value
/// at `path` (record field names; tuple components are "0", "1", …) inside
/// variable `of`.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeSource {
    pub size: VarId,
    pub of: VarId,
    pub path: Vec<String>,
    pub dim: u32,
}

/// What a size parameter of a function (`n` of `unflatten [n] [m]`)
/// resolved to at one use: a dimension in terms of the caller's
/// variables, or [`Dim::Any`] when the context does not tell. Lowering
/// uses it for size parameters that no argument's shape determines.
pub type SizeInst = (VarId, Dim);

#[derive(Clone, Debug, PartialEq)]
pub enum TPat {
    Var(VarId, Type, Span),
    Wildcard(Type, Span),
    Tuple(Vec<TPat>, Span),
    /// Fields sorted by name.
    Record(Vec<(String, TPat)>, Span),
    /// `#c p1 p2` against a value of the sum type `Type`.
    Constr(String, Vec<TPat>, Type, Span),
    /// A literal (only in `match` cases) of type `Type`.
    Lit(Literal, Type, Span),
}

impl TPat {
    pub fn ty(&self) -> Type {
        match self {
            TPat::Var(_, t, _)
            | TPat::Wildcard(t, _)
            | TPat::Constr(_, _, t, _)
            | TPat::Lit(_, t, _) => t.clone(),
            TPat::Tuple(ps, _) => Type::Tuple(ps.iter().map(TPat::ty).collect()),
            TPat::Record(fs, _) => {
                Type::Record(fs.iter().map(|(n, p)| (n.clone(), p.ty())).collect())
            }
        }
    }
    pub fn span(&self) -> Span {
        match self {
            TPat::Var(_, _, s)
            | TPat::Wildcard(_, s)
            | TPat::Tuple(_, s)
            | TPat::Record(_, s)
            | TPat::Constr(_, _, _, s)
            | TPat::Lit(_, _, s) => *s,
        }
    }
    /// The variables bound, left to right.
    pub fn vars(&self, out: &mut Vec<VarId>) {
        match self {
            TPat::Var(v, _, _) => out.push(*v),
            TPat::Wildcard(..) | TPat::Lit(..) => {}
            TPat::Tuple(ps, _) | TPat::Constr(_, ps, _, _) => ps.iter().for_each(|p| p.vars(out)),
            TPat::Record(fs, _) => fs.iter().for_each(|(_, p)| p.vars(out)),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TDimIndex {
    /// `i` (of any integer type; i32 when nothing decides it)
    Fix(TExp),
    /// `a:b:s`, each part optional (of any integer type; i64 when nothing
    /// decides it)
    Slice {
        start: Option<TExp>,
        end: Option<TExp>,
        stride: Option<TExp>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum TLoopForm {
    /// `for i < n`: `i` has `n`'s integer type.
    For(VarId, Box<TExp>),
    /// `for p in xs`
    ForIn(TPat, Box<TExp>),
    /// `while c` (the loop pattern's variables are in scope in `c`)
    While(Box<TExp>),
}

/// A local function, possibly polymorphic (let-polymorphism).
#[derive(Clone, Debug, PartialEq)]
pub struct TLocalFun {
    pub var: VarId,
    pub type_params: Vec<TypeParamId>,
    pub size_params: Vec<VarId>,
    pub size_sources: Vec<SizeSource>,
    pub params: Vec<TPat>,
    pub ret: Type,
    pub body: TExp,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RangeKind {
    /// `a..<b`
    UpToExclusive,
    /// `a..>b`
    DownToExclusive,
    /// `a...b`
    Inclusive,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TExpKind {
    Lit(Literal),
    /// A variable; `inst` instantiates a polymorphic local function's type
    /// parameters (empty otherwise), and the sizes its size parameters
    /// take at this use (see [`SizeInst`]).
    Var(VarId, Vec<Type>, Vec<SizeInst>),
    /// A top-level function or constant, with its type parameters
    /// instantiated in the order of [`TFun::type_params`] and the sizes
    /// its size parameters take at this use.
    Global(FunId, Vec<Type>, Vec<SizeInst>),
    /// A built-in function of [`crate::intrinsics`], curried, with its type
    /// parameters instantiated; named by its name in the table
    /// ([`crate::intrinsics::Intrinsic::name`]).
    Intrinsic(&'static str, Vec<Type>),
    Tuple(Vec<TExp>),
    /// Fields sorted by name.
    Record(Vec<(String, TExp)>),
    ArrayLit(Vec<TExp>),
    /// `start[..second]..end` of an integer type; `second` gives the stride.
    Range {
        start: Box<TExp>,
        second: Option<Box<TExp>>,
        end: Box<TExp>,
        kind: RangeKind,
    },
    /// Record field or tuple component (`"0"`, `"1"`, …).
    Project(Box<TExp>, String),
    Index(Box<TExp>, Vec<TDimIndex>),
    /// `arr with [slices] = v`
    Update(Box<TExp>, Vec<TDimIndex>, Box<TExp>),
    /// `r with a.b = v`
    RecordUpdate(Box<TExp>, Vec<String>, Box<TExp>),
    /// Application to one or more arguments (possibly partial).
    Apply(Box<TExp>, Vec<TExp>),
    If(Box<TExp>, Box<TExp>, Box<TExp>),
    /// `let [sizes] pat = rhs in body`
    Let {
        sizes: Vec<SizeSource>,
        pat: TPat,
        rhs: Box<TExp>,
        body: Box<TExp>,
    },
    LetFun(Box<TLocalFun>, Box<TExp>),
    Lambda(Vec<TPat>, Box<TExp>),
    Loop {
        pat: TPat,
        init: Box<TExp>,
        form: TLoopForm,
        body: Box<TExp>,
        /// The attributes the source gives the loop, outermost first
        /// (`#[unroll]`, `#[sequential]`, `#[stripmine(k)]`; see
        /// [`stripmine_factor`]).
        attrs: Vec<Attr>,
    },
    Assert(Box<TExp>, Box<TExp>),
    /// `#[param(name)] e`: a tuning parameter of compiled code whose
    /// default is `e` (`i64`; on other types the attribute is ignored).
    UserParam(String, Box<TExp>),
    /// `e :> t` or `e : t` where `t` names sizes: the value of `e`, whose
    /// shape must match the known dimensions of this expression's type
    /// (checked at run time).
    Coerce(Box<TExp>),
    /// `#c e1 e2`: a value of this expression's sum type.
    Constr(String, Vec<TExp>),
    /// `match e case p1 -> e1 …`: the first case whose pattern matches.
    Match(Box<TExp>, Vec<(TPat, TExp)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TExp {
    pub kind: TExpKind,
    pub ty: Type,
    pub span: Span,
}

impl TExp {
    pub fn new(kind: TExpKind, ty: Type, span: Span) -> TExp {
        TExp { kind, ty, span }
    }

    /// The expressions directly inside this one, in source order.
    pub fn children(&self) -> Vec<&TExp> {
        fn dims<'a>(is: &'a [TDimIndex], out: &mut Vec<&'a TExp>) {
            for i in is {
                match i {
                    TDimIndex::Fix(e) => out.push(e),
                    TDimIndex::Slice { start, end, stride } => {
                        out.extend([start, end, stride].into_iter().flatten());
                    }
                }
            }
        }
        let mut out: Vec<&TExp> = vec![];
        match &self.kind {
            TExpKind::Lit(_)
            | TExpKind::Var(..)
            | TExpKind::Global(..)
            | TExpKind::Intrinsic(..) => {}
            TExpKind::Tuple(es) | TExpKind::ArrayLit(es) | TExpKind::Constr(_, es) => {
                out.extend(es)
            }
            TExpKind::Record(fs) => out.extend(fs.iter().map(|(_, e)| e)),
            TExpKind::Range {
                start, second, end, ..
            } => {
                out.push(start);
                out.extend(second.as_deref());
                out.push(end);
            }
            TExpKind::Project(e, _) | TExpKind::Coerce(e) | TExpKind::UserParam(_, e) => {
                out.push(e)
            }
            TExpKind::Index(e, is) => {
                out.push(e);
                dims(is, &mut out);
            }
            TExpKind::Update(e, is, v) => {
                out.push(e);
                dims(is, &mut out);
                out.push(v);
            }
            TExpKind::RecordUpdate(e, _, v) => out.extend([&**e, &**v]),
            TExpKind::Apply(f, args) => {
                out.push(f);
                out.extend(args);
            }
            TExpKind::If(c, t, e) => out.extend([&**c, &**t, &**e]),
            TExpKind::Let { rhs, body, .. } => out.extend([&**rhs, &**body]),
            TExpKind::LetFun(f, body) => out.extend([&f.body, &**body]),
            TExpKind::Lambda(_, body) => out.push(body),
            TExpKind::Loop {
                init, form, body, ..
            } => {
                out.push(init);
                match form {
                    TLoopForm::For(_, e) | TLoopForm::ForIn(_, e) | TLoopForm::While(e) => {
                        out.push(e)
                    }
                }
                out.push(body);
            }
            TExpKind::Assert(c, e) => out.extend([&**c, &**e]),
            TExpKind::Match(e, cases) => {
                out.push(e);
                out.extend(cases.iter().map(|(_, e)| e));
            }
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TFun {
    pub id: FunId,
    pub name: String,
    pub type_params: Vec<TypeParamId>,
    pub size_params: Vec<VarId>,
    /// How size parameters are read off the parameters' shapes. A size
    /// parameter without a source is determined only by the context (e.g.
    /// `unflatten`'s result sizes).
    pub size_sources: Vec<SizeSource>,
    pub params: Vec<TPat>,
    pub ret: Type,
    pub body: TExp,
    pub span: Span,
    pub entry: bool,
    /// Defined by the prelude rather than the user's program.
    pub prelude: bool,
    /// The body refers to the function itself (`Global` of [`Self::id`]):
    /// lowering makes it a core function instead of inlining it.
    pub recursive: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TProgram {
    pub funs: Vec<TFun>,
    /// Name, type and location of every [`VarId`], indexed by its number.
    pub vars: Vec<VarInfo>,
    /// Source names of type parameters, indexed by [`TypeParamId`].
    pub type_params: Vec<String>,
}

impl TProgram {
    pub fn var(&self, v: VarId) -> &VarInfo {
        &self.vars[v.0 as usize]
    }
    pub fn fun(&self, f: FunId) -> &TFun {
        &self.funs[f.0 as usize]
    }
    pub fn fun_by_name(&self, name: &str) -> Option<&TFun> {
        self.funs.iter().rev().find(|f| f.name == name)
    }
}

/// If record field names are exactly `0`, `1`, …, `n-1` (n ≥ 2), the
/// record is a tuple: returns, for each component, its position in `names`.
pub(crate) fn tuple_order(names: &[&str]) -> Option<Vec<usize>> {
    let n = names.len();
    if n < 2 {
        return None;
    }
    (0..n)
        .map(|i| names.iter().position(|m| *m == i.to_string()))
        .collect()
}

pub(crate) fn int_prim(t: IntType) -> Type {
    Type::Prim(PrimType::Int(t))
}

pub(crate) fn float_prim(t: FloatType) -> Type {
    Type::Prim(PrimType::Float(t))
}

/// The factor `k` of the first well-formed `#[stripmine(k)]` (`k ≥ 1`)
/// of a loop's attributes: reverse AD may then trade memory for
/// recomputation by splitting the loop into `k` nested loops. Others,
/// and malformed ones, are ignored, as Futhark ignores unknown
/// attributes.
pub fn stripmine_factor(attrs: &[Attr]) -> Option<u32> {
    attrs.iter().find_map(|a| match a {
        Attr::Comp(name, args, _) if name == "stripmine" => match args.as_slice() {
            [Attr::Int(k, _)] if *k >= 1 => u32::try_from(*k).ok(),
            _ => None,
        },
        _ => None,
    })
}

/// The run-time error message of a typed hole, if `f` applied to `args`
/// is one: the intrinsic `__hole` applied to a string literal.
pub fn hole_message(f: &TExp, args: &[TExp]) -> Option<String> {
    let TExpKind::Intrinsic("__hole", _) = f.kind else {
        return None;
    };
    let [TExp {
        kind: TExpKind::ArrayLit(cs),
        ..
    }] = args
    else {
        return None;
    };
    let bytes = cs
        .iter()
        .map(|c| match c.kind {
            TExpKind::Lit(Literal::Int(b)) => u8::try_from(b).ok(),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}
