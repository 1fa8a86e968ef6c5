//! Inference variables and unification (Hindley–Milner with levels), plus
//! the constraints that Futhark's overloading needs: a variable may be
//! restricted to a class of primitive types (from literals and operators)
//! or required to be a record/tuple with certain fields (from `r.x`), or
//! a sum type with certain constructors (from `#c x` and `case #c p`).
//! Variables may also be required to contain no functions (array
//! elements, loop parameters, branch results, instances of type
//! parameters without `^`), to be non-lifted altogether (instances of
//! `'a`) or to support equality (operands of `==`).

use crate::tast::{Dim, Type, VarId};
use parad_base::{FloatType, IntType, PrimType};

/// A set of primitive type kinds a variable may become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClassSet(u8);

impl ClassSet {
    const I: u8 = 1;
    const F: u8 = 2;
    const B: u8 = 4;
    /// No restriction at all (not even to primitive types).
    pub const ANY: ClassSet = ClassSet(8 | 7);
    pub const NUM: ClassSet = ClassSet(Self::I | Self::F);
    pub const INT: ClassSet = ClassSet(Self::I);
    pub const FLOAT: ClassSet = ClassSet(Self::F);
    pub const INT_BOOL: ClassSet = ClassSet(Self::I | Self::B);
    /// Any primitive type.
    pub const PRIM: ClassSet = ClassSet(7);

    pub fn is_any(self) -> bool {
        self == ClassSet::ANY
    }

    pub fn admits(self, p: PrimType) -> bool {
        let bit = match p {
            PrimType::Int(_) => Self::I,
            PrimType::Float(_) => Self::F,
            PrimType::Bool => Self::B,
        };
        self.0 & bit != 0
    }

    /// Integers used as indices default to i64 rather than i32.
    pub const INDEX: ClassSet = ClassSet(Self::I | Self::PREFER_I64);
    const PREFER_I64: u8 = 16;

    fn meet(self, other: ClassSet) -> Option<ClassSet> {
        let m = self.0 & other.0 & 15;
        let flag = (self.0 | other.0) & Self::PREFER_I64;
        (m & 7 != 0).then_some(ClassSet(m | flag))
    }

    /// The type an ambiguous variable of this class defaults to.
    pub fn default_type(self) -> PrimType {
        if self.0 & Self::I != 0 && self.0 & Self::PREFER_I64 != 0 {
            PrimType::Int(IntType::I64)
        } else if self.0 & Self::I != 0 {
            PrimType::Int(IntType::I32)
        } else if self.0 & Self::F != 0 {
            PrimType::Float(FloatType::F64)
        } else {
            PrimType::Bool
        }
    }

    pub fn describe(self) -> &'static str {
        match self.0 & 7 {
            3 => "numeric",
            1 => "integral",
            2 => "floating-point",
            5 => "integral or boolean",
            _ => "primitive",
        }
    }
}

#[derive(Clone, Debug)]
struct TVar {
    link: Option<Type>,
    level: u32,
    /// The number of value variables that existed when it was made: the
    /// type it stands for may only have sizes made of those (or unknown
    /// sizes), as for size variables ([`Infer::dim_scope`]).
    scope: u32,
    class: ClassSet,
    /// Fields the variable's record or tuple type must have.
    fields: Vec<(String, Type)>,
    /// Constructors (with payload types) the variable's sum type must have.
    constrs: Vec<(String, Vec<Type>)>,
    /// The constructors of `constrs` that some expression builds (the
    /// others only occur in patterns).
    built: Vec<String>,
    /// The type may not contain functions: it instantiates an unlifted
    /// type parameter (`'a`), or is the type of an array element, a loop
    /// parameter or the result of a branch.
    unlifted: bool,
    /// Values of the type are compared with `==` or `!=`: it may contain
    /// neither functions nor type parameters.
    eq: bool,
    /// The type instantiates an unlifted type parameter (`'a`): it may not
    /// even be size-lifted.
    strict: bool,
}

/// Why two types do not unify; formatted by the caller, which knows the
/// context.
#[derive(Clone, Debug)]
pub(crate) enum UnifyError {
    Mismatch,
    /// A type outside the class a variable was restricted to.
    Class(Type, ClassSet),
    /// A type lacking a field that was projected.
    NoField(Type, String),
    /// Unifying would build an infinite type.
    Occurs,
    /// Two sum types (or a sum type and a constructor) whose constructors
    /// differ: the constructors only one side has.
    Unshared(Vec<String>),
    /// A constructor used with payloads of different arities.
    Arity(String),
    /// Two record types whose fields differ: the fields only one side has.
    UnsharedFields(Vec<String>),
    /// A type that is not a record or tuple, where one with fields (from a
    /// projection) is required.
    NotRecord(Type, String),
    /// A function type (or a lifted type parameter), where a type without
    /// functions is required.
    Lifted(Type),
    /// A type that does not support equality (a function type or a type
    /// parameter), where one that does is required.
    Equality(Type),
    /// A lifted or size-lifted type where an unlifted type parameter is
    /// instantiated.
    LiftedParam(Type),
}

#[derive(Default)]
pub(crate) struct Infer {
    vars: Vec<TVar>,
    /// Size inference variables ([`Dim::Infer`]) and what they are bound to.
    dims: Vec<Option<Dim>>,
    /// Pairs of known sizes that unification found different (expected
    /// first), in order; see [`Infer::unify_dim`].
    mismatches: Vec<SizeClash>,
    /// For each size variable, the number of value variables that existed
    /// when it was made: it may only stand for sizes made of those.
    dim_scope: Vec<u32>,
    /// The number of value variables made so far (kept by the checker).
    pub var_count: u32,
    /// The variables that stand for unknown sizes (an `if` whose branches
    /// differ in size, `filter`'s result, a slice): each is distinct from
    /// every other size, but belongs to no scope, so an outer size
    /// variable may stand for it ([`crate::env::Checker::fresh_unknown`]).
    pub unknowns: std::collections::HashSet<u32>,
    pub level: u32,
    /// The rigid type parameters declared lifted (`'^a`), which may stand
    /// for function types.
    pub lifted: std::collections::HashSet<crate::tast::TypeParamId>,
    /// The rigid type parameters declared size-lifted (`'~a`), which may
    /// stand for arrays of different sizes.
    pub size_lifted: std::collections::HashSet<crate::tast::TypeParamId>,
}

/// Sizes that must agree statically but do not.
#[derive(Clone, Debug)]
pub(crate) enum SizeClash {
    /// Two known sizes that differ (expected first).
    Differ(Dim, Dim),
    /// A size variable would stand for a size naming a variable bound
    /// inside its scope (`(xs: []i32) = let n = 5 in zip (iota n) xs`).
    Scope(VarId),
    /// A size variable would stand for a size made of itself (`?a` and
    /// `?a + ?a`, from `a -> a` given a function that doubles a length).
    Occurs,
}

impl Infer {
    pub fn fresh_dim(&mut self) -> Dim {
        self.dims.push(None);
        self.dim_scope.push(self.var_count);
        Dim::Infer(self.dims.len() as u32 - 1)
    }

    /// The number of size inference variables made so far.
    pub fn dim_mark(&self) -> u32 {
        self.dims.len() as u32
    }

    /// Binds every unbound size variable numbered from `mark` on to
    /// [`Dim::Any`] (they can no longer be determined).
    pub fn close_dims(&mut self, mark: u32) {
        for d in &mut self.dims[mark as usize..] {
            if d.is_none() {
                *d = Some(Dim::Any);
            }
        }
    }

    /// Binds size variable `x` (unbound) to `d`, whatever its scope (a
    /// size parameter made for it after the fact).
    pub fn set_dim(&mut self, x: u32, d: Dim) {
        self.dims[x as usize] = Some(d);
    }

    /// A zonked dimension as it leaves the checker: the size variables
    /// inference left open and the unknown sizes become [`Dim::Any`]
    /// (checked at run time from there on).
    pub fn close_dim(&self, d: &Dim) -> Dim {
        match d {
            Dim::Infer(_) | Dim::AbbrevParam(_) => Dim::Any,
            Dim::Var(v) if self.unknowns.contains(&v.0) => Dim::Any,
            Dim::Op(o, a, b) => match (self.close_dim(a), self.close_dim(b)) {
                (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                (a, b) => Dim::Op(*o, Box::new(a), Box::new(b)),
            },
            d => d.clone(),
        }
    }

    /// Follows the links of size variables completely.
    pub fn zonk_dim(&self, d: &Dim) -> Dim {
        match d {
            Dim::Infer(x) => match &self.dims[*x as usize] {
                Some(l) => self.zonk_dim(l),
                None => d.clone(),
            },
            Dim::Op(o, a, b) => Dim::Op(*o, Box::new(self.zonk_dim(a)), Box::new(self.zonk_dim(b))),
            _ => d.clone(),
        }
    }

    fn dim_occurs(&self, x: u32, d: &Dim) -> bool {
        match d {
            Dim::Infer(y) => *y == x,
            Dim::Op(_, a, b) => self.dim_occurs(x, a) || self.dim_occurs(x, b),
            _ => false,
        }
    }

    /// [`Infer::unify_dim`], noting sizes that differ as a mismatch
    /// (expected first), as [`Infer::unify`] does.
    pub fn unify_dim_noting(&mut self, expected: &Dim, actual: &Dim) -> bool {
        let ok = self.unify_dim(expected, actual);
        if !ok {
            let pair = (self.zonk_dim(expected), self.zonk_dim(actual));
            self.mismatches.push(SizeClash::Differ(pair.0, pair.1));
        }
        ok
    }

    /// Unifies two dimensions. Unknown dimensions agree with anything;
    /// sizes are compared syntactically, so `n * m` against `?a * ?b`
    /// binds `?a = n` and `?b = m`. Returns false for known sizes that
    /// differ (`n` and `m`, `10` and `n + 1`; not `?a + ?b` and `10`),
    /// which the caller reports where the sizes must agree statically and
    /// otherwise leaves to the run-time checks or makes unknown (branches
    /// of `if`).
    pub fn unify_dim(&mut self, a: &Dim, b: &Dim) -> bool {
        let a = self.zonk_dim(a);
        let b = self.zonk_dim(b);
        match (&a, &b) {
            (Dim::Infer(x), Dim::Infer(y)) if x == y => true,
            (Dim::Infer(x), d) | (d, Dim::Infer(x)) => {
                if *d == Dim::Any {
                    return true;
                }
                if self.dim_occurs(*x, d) {
                    // `?a` against `?a + ?a`: no size is both.
                    self.mismatches.push(SizeClash::Occurs);
                    return true;
                }
                let mut vs = vec![];
                d.vars(&mut vs);
                let scope = self.dim_scope[*x as usize];
                match vs
                    .into_iter()
                    .find(|v| v.0 >= scope && !self.unknowns.contains(&v.0))
                {
                    Some(v) => self.mismatches.push(SizeClash::Scope(v)),
                    None => self.dims[*x as usize] = Some(d.clone()),
                }
                true
            }
            // Unknown, or a size parameter not yet substituted.
            (Dim::Any | Dim::AbbrevParam(_), _) | (_, Dim::Any | Dim::AbbrevParam(_)) => true,
            (Dim::Op(o1, a1, b1), Dim::Op(o2, a2, b2)) if o1 == o2 => {
                let l = self.unify_dim(a1, a2);
                let r = self.unify_dim(b1, b2);
                l && r
            }
            // A size with unknown parts (`?a + ?b`) may still be what the
            // context determines (`split`); lowering checks it.
            _ => a == b || !(rigid(&a) && rigid(&b)),
        }
    }

    /// The number of size mismatches recorded so far.
    pub fn mismatch_mark(&self) -> usize {
        self.mismatches.len()
    }

    /// The first clash of sizes that unification met since `mark`.
    pub fn mismatch_since(&self, mark: usize) -> Option<SizeClash> {
        self.mismatches.get(mark).cloned()
    }

    pub fn fresh(&mut self) -> Type {
        self.fresh_class(ClassSet::ANY)
    }

    pub fn fresh_class(&mut self, class: ClassSet) -> Type {
        self.vars.push(TVar {
            link: None,
            level: self.level,
            scope: self.var_count,
            class,
            fields: vec![],
            constrs: vec![],
            built: vec![],
            unlifted: false,
            eq: false,
            strict: false,
        });
        Type::Var(self.vars.len() as u32 - 1)
    }

    pub fn is_unlifted(&self, v: u32) -> bool {
        self.vars[v as usize].unlifted
    }

    /// Requires `t` to be a non-lifted type (what an unlifted type
    /// parameter `'a` may stand for): no functions, no lifted or
    /// size-lifted type parameters; restricts its variables likewise.
    pub fn require_strict(&mut self, t: &Type) -> Result<(), UnifyError> {
        match self.shallow(t) {
            Type::Var(v) => {
                self.vars[v as usize].strict = true;
                self.require_unlifted(&Type::Var(v))
            }
            p @ Type::Param(q) if self.lifted.contains(&q) || self.size_lifted.contains(&q) => {
                Err(UnifyError::LiftedParam(p))
            }
            a @ Type::Arrow(..) => Err(UnifyError::Lifted(a)),
            Type::Acc(e) => self.require_strict(&e),
            t => parts(&t).iter().try_for_each(|t| self.require_strict(t)),
        }
    }

    pub fn needs_eq(&self, v: u32) -> bool {
        self.vars[v as usize].eq
    }

    /// Requires `t` to support equality: no functions and no type
    /// parameters; restricts the variables of `t` likewise.
    pub fn require_eq(&mut self, t: &Type) -> Result<(), UnifyError> {
        match self.shallow(t) {
            Type::Var(v) => {
                self.vars[v as usize].eq = true;
                self.vars[v as usize].unlifted = true;
                self.var_parts(v)
                    .iter()
                    .try_for_each(|t| self.require_eq(t))
            }
            t @ (Type::Arrow(..) | Type::Param(_) | Type::Acc(_)) => Err(UnifyError::Equality(t)),
            t => parts(&t).iter().try_for_each(|t| self.require_eq(t)),
        }
    }

    /// Requires `t` to have no functions: fails on a function type or a
    /// lifted type parameter, and restricts the variables of `t` likewise.
    pub fn require_unlifted(&mut self, t: &Type) -> Result<(), UnifyError> {
        match self.shallow(t) {
            Type::Var(v) => {
                self.vars[v as usize].unlifted = true;
                self.var_parts(v)
                    .iter()
                    .try_for_each(|t| self.require_unlifted(t))
            }
            a @ Type::Arrow(..) => Err(UnifyError::Lifted(a)),
            p @ Type::Param(q) if self.lifted.contains(&q) => Err(UnifyError::Lifted(p)),
            Type::Acc(e) => self.require_unlifted(&e),
            t => parts(&t).iter().try_for_each(|t| self.require_unlifted(t)),
        }
    }

    /// The field and payload types required of unresolved variable `v`,
    /// which a requirement on `v` carries over to.
    fn var_parts(&self, v: u32) -> Vec<Type> {
        let tv = &self.vars[v as usize];
        let fields = tv.fields.iter().map(|(_, t)| t.clone());
        let payloads = tv.constrs.iter().flat_map(|(_, ts)| ts.iter().cloned());
        fields.chain(payloads).collect()
    }

    /// A variable that must be a sum type with constructor `name` of
    /// payload types `payload`.
    /// `in_pat`: the constructor comes from a pattern.
    pub fn fresh_with_constr(&mut self, name: &str, payload: Vec<Type>, in_pat: bool) -> Type {
        let v = self.fresh();
        if let Type::Var(i) = v {
            let tv = &mut self.vars[i as usize];
            tv.constrs.push((name.to_string(), payload));
            if !in_pat {
                tv.built.push(name.to_string());
            }
        }
        v
    }

    /// The constructors required of unresolved variable `v` that only
    /// patterns name.
    pub fn pattern_only_constrs(&self, v: u32) -> Vec<String> {
        let tv = &self.vars[v as usize];
        tv.constrs
            .iter()
            .filter(|(n, _)| !tv.built.contains(n))
            .map(|(n, _)| n.clone())
            .collect()
    }

    pub fn has_constrs(&self, v: u32) -> bool {
        !self.vars[v as usize].constrs.is_empty()
    }

    pub fn constrs_of(&self, v: u32) -> Vec<(String, Vec<Type>)> {
        self.vars[v as usize].constrs.clone()
    }

    /// A variable that must be a record or tuple with field `name` of type
    /// `ty`.
    pub fn fresh_with_field(&mut self, name: &str, ty: Type) -> Type {
        let v = self.fresh();
        if let Type::Var(i) = v {
            self.vars[i as usize].fields.push((name.to_string(), ty));
        }
        v
    }

    pub fn class_of(&self, v: u32) -> ClassSet {
        self.vars[v as usize].class
    }

    pub fn level_of(&self, v: u32) -> u32 {
        self.vars[v as usize].level
    }

    pub fn has_fields(&self, v: u32) -> bool {
        !self.vars[v as usize].fields.is_empty()
    }

    pub fn fields_of(&self, v: u32) -> Vec<(String, Type)> {
        self.vars[v as usize].fields.clone()
    }

    /// Follows links at the top of a type and merges nested array types.
    pub fn shallow(&self, t: &Type) -> Type {
        match t {
            Type::Var(v) => match &self.vars[*v as usize].link {
                Some(l) => self.shallow(l),
                None => t.clone(),
            },
            Type::Array(e, ds) => Type::array_dims(self.shallow(e), ds.clone()),
            _ => t.clone(),
        }
    }

    /// Resolves every link in a type.
    pub fn zonk(&self, t: &Type) -> Type {
        match self.shallow(t) {
            Type::Array(e, ds) => {
                Type::array_dims(self.zonk(&e), ds.iter().map(|d| self.zonk_dim(d)).collect())
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.zonk(t)).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), self.zonk(t))).collect())
            }
            Type::Arrow(a, b) => Type::arrow(self.zonk(&a), self.zonk(&b)),
            Type::Acc(a) => Type::Acc(Box::new(self.zonk(&a))),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| self.zonk(t)).collect()))
                    .collect(),
            ),
            t => t,
        }
    }

    /// Binds variable `v` directly (used for generalisation and defaulting).
    pub fn set(&mut self, v: u32, t: Type) {
        self.vars[v as usize].link = Some(t);
    }

    /// The unresolved variables of a type, in order of appearance.
    pub fn free_vars(&self, t: &Type, out: &mut Vec<u32>) {
        match self.shallow(t) {
            Type::Var(v) => {
                if !out.contains(&v) {
                    out.push(v);
                }
                for t in self.var_parts(v) {
                    self.free_vars(&t, out);
                }
            }
            Type::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| self.free_vars(t, out))),
            Type::Prim(_) | Type::Param(_) => {}
            Type::Array(e, _) | Type::Acc(e) => self.free_vars(&e, out),
            Type::Tuple(ts) => ts.iter().for_each(|t| self.free_vars(t, out)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| self.free_vars(t, out)),
            Type::Arrow(a, b) => {
                self.free_vars(&a, out);
                self.free_vars(&b, out);
            }
        }
    }

    pub fn unify(&mut self, a: &Type, b: &Type) -> Result<(), UnifyError> {
        let a = self.shallow(a);
        let b = self.shallow(b);
        match (&a, &b) {
            (Type::Var(x), Type::Var(y)) if x == y => Ok(()),
            (Type::Var(x), _) => self.bind(*x, &b),
            (_, Type::Var(y)) => self.bind(*y, &a),
            (Type::Prim(p), Type::Prim(q)) if p == q => Ok(()),
            (Type::Param(p), Type::Param(q)) if p == q => Ok(()),
            (Type::Array(e1, d1), Type::Array(e2, d2)) => {
                let k = d1.len().min(d2.len());
                for (x, y) in d1.iter().zip(d2) {
                    if !self.unify_dim(x, y) {
                        let pair = (self.zonk_dim(x), self.zonk_dim(y));
                        self.mismatches.push(SizeClash::Differ(pair.0, pair.1));
                    }
                }
                if d1.len() == d2.len() {
                    self.unify(e1, e2)
                } else if d1.len() < d2.len() {
                    self.unify(e1, &Type::Array(e2.clone(), d2[k..].to_vec()))
                } else {
                    self.unify(&Type::Array(e1.clone(), d1[k..].to_vec()), e2)
                }
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y)?;
                }
                Ok(())
            }
            (Type::Record(xs), Type::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(&x.1, &y.1)?;
                }
                Ok(())
            }
            (Type::Record(xs), Type::Record(ys)) => {
                let mut unshared: Vec<String> = xs
                    .iter()
                    .filter(|(n, _)| !ys.iter().any(|(m, _)| m == n))
                    .chain(ys.iter().filter(|(n, _)| !xs.iter().any(|(m, _)| m == n)))
                    .map(|(n, _)| n.clone())
                    .collect();
                unshared.sort();
                Err(UnifyError::UnsharedFields(unshared))
            }
            (Type::Arrow(a1, b1), Type::Arrow(a2, b2)) => {
                self.unify(a1, a2)?;
                self.unify(b1, b2)
            }
            (Type::Acc(x), Type::Acc(y)) => self.unify(x, y),
            (Type::Sum(xs), Type::Sum(ys)) => {
                let mut unshared: Vec<String> = xs
                    .iter()
                    .filter(|(n, _)| !ys.iter().any(|(m, _)| m == n))
                    .chain(ys.iter().filter(|(n, _)| !xs.iter().any(|(m, _)| m == n)))
                    .map(|(n, _)| n.clone())
                    .collect();
                if !unshared.is_empty() {
                    unshared.sort();
                    return Err(UnifyError::Unshared(unshared));
                }
                for ((n, p), (_, q)) in xs.iter().zip(ys) {
                    if p.len() != q.len() {
                        return Err(UnifyError::Arity(n.clone()));
                    }
                    for (x, y) in p.iter().zip(q) {
                        self.unify(x, y)?;
                    }
                }
                Ok(())
            }
            _ => Err(UnifyError::Mismatch),
        }
    }

    fn bind(&mut self, v: u32, t: &Type) -> Result<(), UnifyError> {
        let level = self.vars[v as usize].level;
        self.occurs_adjust(v, level, t)?;
        let scope = self.vars[v as usize].scope;
        self.scope_adjust(scope, t);
        if self.vars[v as usize].strict {
            let whole = self.zonk(t);
            self.require_strict(t).map_err(|e| match e {
                UnifyError::LiftedParam(_) => UnifyError::LiftedParam(whole.clone()),
                _ => UnifyError::Lifted(whole.clone()),
            })?;
        }
        if self.vars[v as usize].eq {
            let whole = self.zonk(t);
            self.require_eq(t)
                .map_err(|_| UnifyError::Equality(whole))?;
        }
        if self.vars[v as usize].unlifted {
            // Reported with the whole type (`a -> b`), not a part of it.
            let whole = self.zonk(t);
            self.require_unlifted(t)
                .map_err(|_| UnifyError::Lifted(whole))?;
        }
        let class = self.vars[v as usize].class;
        let fields = std::mem::take(&mut self.vars[v as usize].fields);
        let constrs = std::mem::take(&mut self.vars[v as usize].constrs);
        match t {
            Type::Var(w) => {
                let w = *w as usize;
                let restore = |s: &mut Self, fields, constrs| {
                    s.vars[v as usize].fields = fields;
                    s.vars[v as usize].constrs = constrs;
                };
                let Some(m) = self.vars[w].class.meet(class) else {
                    restore(self, fields, constrs);
                    return Err(UnifyError::Class(t.clone(), class));
                };
                let has_fields = !fields.is_empty() || !self.vars[w].fields.is_empty();
                let has_constrs = !constrs.is_empty() || !self.vars[w].constrs.is_empty();
                if !m.is_any() && (has_fields || has_constrs) {
                    let field = fields.iter().chain(&self.vars[w].fields).next();
                    let field = field.map(|f| f.0.clone());
                    restore(self, fields, constrs);
                    if let Some(field) = field {
                        // The side restricted to primitive types.
                        let prim = if class.is_any() {
                            t.clone()
                        } else {
                            Type::Var(v)
                        };
                        return Err(UnifyError::NotRecord(prim, field));
                    }
                    return Err(UnifyError::Class(t.clone(), class));
                }
                if has_fields && has_constrs {
                    restore(self, fields, constrs);
                    return Err(UnifyError::Mismatch);
                }
                self.vars[w].class = m;
                for n in std::mem::take(&mut self.vars[v as usize].built) {
                    if !self.vars[w].built.contains(&n) {
                        self.vars[w].built.push(n);
                    }
                }
                self.vars[v as usize].link = Some(t.clone());
                for (name, ft) in fields {
                    let existing = self.vars[w]
                        .fields
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|x| x.1.clone());
                    match existing {
                        Some(et) => self.unify(&et, &ft)?,
                        None => self.vars[w].fields.push((name, ft)),
                    }
                }
                for (name, ts) in constrs {
                    let existing = self.vars[w]
                        .constrs
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|x| x.1.clone());
                    match existing {
                        Some(es) if es.len() != ts.len() => return Err(UnifyError::Arity(name)),
                        Some(es) => {
                            for (x, y) in es.iter().zip(&ts) {
                                self.unify(x, y)?;
                            }
                        }
                        None => self.vars[w].constrs.push((name, ts)),
                    }
                }
                Ok(())
            }
            _ => {
                if !class.is_any() {
                    match t {
                        Type::Prim(p) if class.admits(*p) => {}
                        _ => return Err(UnifyError::Class(t.clone(), class)),
                    }
                }
                if !fields.is_empty() && !matches!(t, Type::Record(_) | Type::Tuple(_)) {
                    let field = fields[0].0.clone();
                    self.vars[v as usize].fields = fields;
                    self.vars[v as usize].constrs = constrs;
                    return Err(UnifyError::NotRecord(t.clone(), field));
                }
                if !constrs.is_empty() {
                    // Checked before linking, so that messages show both sides.
                    let Type::Sum(cs) = t else {
                        self.vars[v as usize].constrs = constrs;
                        return Err(UnifyError::Mismatch);
                    };
                    for (name, ts) in &constrs {
                        let err = match cs.iter().find(|(n, _)| n == name) {
                            None => Some(UnifyError::Unshared(vec![name.clone()])),
                            Some((_, es)) if es.len() != ts.len() => {
                                Some(UnifyError::Arity(name.clone()))
                            }
                            Some(_) => None,
                        };
                        if let Some(e) = err {
                            self.vars[v as usize].constrs = constrs;
                            return Err(e);
                        }
                    }
                }
                // Sizes the constructors' payloads know are kept: in
                // `[#none, #some [1, 2, 3]]` passed for `maybe ([]i32)`, the
                // elements are `maybe ([3]i32)` (their blanks have 3
                // elements).
                let linked = match t {
                    Type::Sum(cs) if !constrs.is_empty() => Type::Sum(
                        cs.iter()
                            .map(|(n, es)| match constrs.iter().find(|(m, _)| m == n) {
                                Some((_, ts)) if ts.len() == es.len() => (
                                    n.clone(),
                                    es.iter()
                                        .zip(ts)
                                        .map(|(e, t)| self.fill_dims(e, t))
                                        .collect(),
                                ),
                                _ => (n.clone(), es.clone()),
                            })
                            .collect(),
                    ),
                    _ => t.clone(),
                };
                self.vars[v as usize].link = Some(linked);
                for (name, ft) in fields {
                    match field_type(t, &name) {
                        Some(et) => self.unify(&et, &ft)?,
                        None => return Err(UnifyError::NoField(t.clone(), name)),
                    }
                }
                if !constrs.is_empty() {
                    let Type::Sum(cs) = t else {
                        return Err(UnifyError::Mismatch);
                    };
                    for (name, ts) in constrs {
                        let Some((_, es)) = cs.iter().find(|(n, _)| *n == name) else {
                            return Err(UnifyError::Unshared(vec![name]));
                        };
                        if es.len() != ts.len() {
                            return Err(UnifyError::Arity(name));
                        }
                        for (x, y) in es.iter().zip(&ts) {
                            self.unify(x, y)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// `t` with its unknown dimensions replaced by those `from` (a type of
    /// the same shape) knows.
    fn fill_dims(&self, t: &Type, from: &Type) -> Type {
        match (t, self.zonk(from)) {
            (Type::Array(e, ds), Type::Array(fe, fds)) if ds.len() == fds.len() => Type::Array(
                Box::new(self.fill_dims(e, &fe)),
                ds.iter()
                    .zip(&fds)
                    .map(|(d, f)| match d {
                        Dim::Any if rigid(f) => f.clone(),
                        d => d.clone(),
                    })
                    .collect(),
            ),
            (Type::Tuple(ts), Type::Tuple(fs)) if ts.len() == fs.len() => Type::Tuple(
                ts.iter()
                    .zip(&fs)
                    .map(|(t, f)| self.fill_dims(t, f))
                    .collect(),
            ),
            _ => t.clone(),
        }
    }

    /// Occurs check; also lowers the levels of variables in `t` to `level`
    /// so that they are not generalised too early.
    /// Narrows the scopes of the size and type variables in `t` to
    /// `scope` (a variable whose scope is `scope` now stands for a type
    /// containing them), and notes a clash for a size naming a variable
    /// bound inside that scope (`\xs n -> zip xs (iota n)`).
    fn scope_adjust(&mut self, scope: u32, t: &Type) {
        match self.shallow(t) {
            Type::Var(w) => {
                let wv = &mut self.vars[w as usize];
                wv.scope = wv.scope.min(scope);
            }
            Type::Array(e, ds) => {
                for d in &ds {
                    self.scope_adjust_dim(scope, d);
                }
                self.scope_adjust(scope, &e);
            }
            Type::Acc(e) => self.scope_adjust(scope, &e),
            Type::Tuple(ts) => ts.iter().for_each(|t| self.scope_adjust(scope, t)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| self.scope_adjust(scope, t)),
            Type::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| self.scope_adjust(scope, t))),
            Type::Arrow(a, b) => {
                self.scope_adjust(scope, &a);
                self.scope_adjust(scope, &b);
            }
            Type::Prim(_) | Type::Param(_) => {}
        }
    }

    fn scope_adjust_dim(&mut self, scope: u32, d: &Dim) {
        match self.zonk_dim(d) {
            Dim::Infer(x) => {
                let s = &mut self.dim_scope[x as usize];
                *s = (*s).min(scope);
            }
            Dim::Var(v) if v.0 >= scope && !self.unknowns.contains(&v.0) => {
                self.mismatches.push(SizeClash::Scope(v));
            }
            Dim::Op(_, a, b) => {
                self.scope_adjust_dim(scope, &a);
                self.scope_adjust_dim(scope, &b);
            }
            _ => {}
        }
    }

    fn occurs_adjust(&mut self, v: u32, level: u32, t: &Type) -> Result<(), UnifyError> {
        match self.shallow(t) {
            Type::Var(w) => {
                if w == v {
                    return Err(UnifyError::Occurs);
                }
                let wv = &mut self.vars[w as usize];
                wv.level = wv.level.min(level);
                for (_, ft) in wv.fields.clone() {
                    self.occurs_adjust(v, level, &ft)?;
                }
                for (_, ts) in self.vars[w as usize].constrs.clone() {
                    for t in &ts {
                        self.occurs_adjust(v, level, t)?;
                    }
                }
                Ok(())
            }
            Type::Sum(cs) => cs.iter().try_for_each(|(_, ts)| {
                ts.iter().try_for_each(|t| self.occurs_adjust(v, level, t))
            }),
            Type::Prim(_) | Type::Param(_) => Ok(()),
            Type::Array(e, _) | Type::Acc(e) => self.occurs_adjust(v, level, &e),
            Type::Tuple(ts) => ts.iter().try_for_each(|t| self.occurs_adjust(v, level, t)),
            Type::Record(fs) => fs
                .iter()
                .try_for_each(|(_, t)| self.occurs_adjust(v, level, t)),
            Type::Arrow(a, b) => {
                self.occurs_adjust(v, level, &a)?;
                self.occurs_adjust(v, level, &b)
            }
        }
    }
}

/// The type of field `name` of a record, or of component `name` ("0",
/// "1", …) of a tuple.
pub(crate) fn field_type(t: &Type, name: &str) -> Option<Type> {
    match t {
        Type::Record(fs) => fs.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()),
        Type::Tuple(ts) => name.parse::<usize>().ok().and_then(|i| ts.get(i).cloned()),
        _ => None,
    }
}

/// A size made of constants and variables only (no unknown parts).
/// Whether a dimension is made of constants and variables only.
pub(crate) fn rigid(d: &Dim) -> bool {
    match d {
        Dim::Const(_) | Dim::Var(_) => true,
        Dim::Op(_, a, b) => rigid(a) && rigid(b),
        _ => false,
    }
}

/// The types directly inside `t` (an array's element type, the components
/// of a tuple, the fields of a record, the payloads of a sum), which a
/// requirement on `t` carries over to; none for other types (accumulators
/// are each requirement's own case).
fn parts(t: &Type) -> Vec<Type> {
    match t {
        Type::Array(e, _) => vec![(**e).clone()],
        Type::Tuple(ts) => ts.clone(),
        Type::Record(fs) => fs.iter().map(|(_, t)| t.clone()).collect(),
        Type::Sum(cs) => cs.iter().flat_map(|(_, ts)| ts.iter().cloned()).collect(),
        _ => vec![],
    }
}
