//! The core IR: A-normal form bodies of `let` statements, variadic SOACs
//! with lambdas as operators, and first-order functions.

use crate::names::{NameSource, Symbol, VName};
use crate::ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
use crate::types::Type;
use parad_base::{IntType, PrimType, Scalar, Span};

/// A variable or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Var(VName),
    Const(Scalar),
}

impl Operand {
    pub fn var(self) -> Option<VName> {
        match self {
            Operand::Var(v) => Some(v),
            Operand::Const(_) => None,
        }
    }

    pub fn i64(n: i64) -> Operand {
        Operand::Const(Scalar::I64(n))
    }
    pub fn i32(n: i32) -> Operand {
        Operand::Const(Scalar::I32(n))
    }
    pub fn f32(x: f32) -> Operand {
        Operand::Const(Scalar::F32(x))
    }
    pub fn f64(x: f64) -> Operand {
        Operand::Const(Scalar::F64(x))
    }
    pub fn bool(b: bool) -> Operand {
        Operand::Const(Scalar::Bool(b))
    }
}

impl From<VName> for Operand {
    fn from(v: VName) -> Operand {
        Operand::Var(v)
    }
}

impl From<Scalar> for Operand {
    fn from(s: Scalar) -> Operand {
        Operand::Const(s)
    }
}

/// A name bound by a pattern, a parameter or a loop, with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: VName,
    pub ty: Type,
}

impl Param {
    pub fn new(name: VName, ty: Type) -> Param {
        Param { name, ty }
    }
}

/// `let pat = exp`. `span` locates run-time errors of `exp`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stm {
    pub pat: Vec<Param>,
    pub exp: Exp,
    pub span: Span,
    pub attrs: Vec<Attr>,
}

impl Stm {
    /// A statement without attributes.
    pub fn new(pat: Vec<Param>, exp: impl Into<Exp>, span: Span) -> Stm {
        Stm {
            pat,
            exp: exp.into(),
            span,
            attrs: vec![],
        }
    }
}

/// Statements followed by the result operands.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Body {
    pub stms: Vec<Stm>,
    pub result: Vec<Operand>,
}

/// An anonymous function; only appears as a SOAC operator, a `withacc`
/// body or the function of a `jvp`/`vjp`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub ret: Vec<Type>,
    pub body: Body,
}

/// One dimension of an index or slice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DimIndex {
    /// A single index; the dimension disappears from the result.
    Fix(Operand),
    /// `len` elements starting at `start`, `stride` apart (stride may be
    /// negative).
    Slice {
        start: Operand,
        len: Operand,
        stride: Operand,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    /// `for i < bound`, with `i` of integer type `it`.
    For {
        i: VName,
        it: IntType,
        bound: Operand,
    },
    /// Runs while the `bool` loop parameter `cond` is true (tested before
    /// each iteration).
    While { cond: VName },
}

/// One destination of a scatter: `arr[inds[0][k], …] = vals[k]` for each
/// `k < w`; out-of-bounds writes are ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterDest {
    pub arr: VName,
    pub inds: Vec<VName>,
    pub vals: VName,
}

/// An associative (and commutative, for `hist`) operator on tuples: the
/// lambda takes `2k` parameters and returns `k` values.
#[derive(Clone, Debug, PartialEq)]
pub struct AccOp {
    pub lam: Lambda,
    pub neutral: Vec<Operand>,
}

/// Arrays turned into one accumulator by `withacc`. Without an operator,
/// `upd` overwrites; with one, it combines the old and new values.
#[derive(Clone, Debug, PartialEq)]
pub struct AccInput {
    pub ispace: Vec<Operand>,
    pub arrs: Vec<VName>,
    pub op: Option<AccOp>,
}

/// Operations without nested bodies.
#[derive(Clone, Debug, PartialEq)]
pub enum BasicOp {
    /// The operand itself.
    Atom(Operand),
    UnOp(UnOp, PrimType, Operand),
    BinOp(BinOp, PrimType, Operand, Operand),
    TernOp(TernOp, PrimType, Operand, Operand, Operand),
    Cmp(CmpOp, PrimType, Operand, Operand),
    Conv(ConvOp, PrimType, PrimType, Operand),
    /// Indexing and slicing; dimensions not mentioned are taken whole.
    Index {
        arr: VName,
        slice: Vec<DimIndex>,
    },
    /// `arr with [slice] = value`; consumes `arr`.
    Update {
        arr: VName,
        slice: Vec<DimIndex>,
        value: Operand,
    },
    Reshape {
        arr: VName,
        shape: Vec<Operand>,
    },
    /// Merges the two outer dimensions.
    Flatten {
        arr: VName,
    },
    /// Splits the outer dimension into `[n][m]`.
    Unflatten {
        arr: VName,
        n: Operand,
        m: Operand,
    },
    /// Result dimension `i` is dimension `perm[i]` of `arr`.
    Rearrange {
        arr: VName,
        perm: Vec<usize>,
    },
    /// `[start, start+step, …]` with `n` elements of type `it`.
    Iota {
        n: Operand,
        start: Operand,
        step: Operand,
        it: IntType,
    },
    Replicate {
        n: Operand,
        value: Operand,
    },
    /// An array whose elements are never read before being written.
    Scratch {
        elem: PrimType,
        shape: Vec<Operand>,
    },
    /// Concatenation along the outer dimension.
    Concat {
        arrs: Vec<VName>,
    },
    Copy {
        arr: VName,
    },
    /// Reverses the outer dimension.
    Reverse {
        arr: VName,
    },
    /// `rotate(k, xs)[i] = xs[(i + k) mod n]`.
    Rotate {
        arr: VName,
        amount: Operand,
    },
    /// The size of dimension `dim` of `arr`, as `i64`.
    Size {
        arr: VName,
        dim: usize,
    },
    /// Fails with `message` unless `cond`; binds nothing. Each `{}` in
    /// the message is replaced by the value of the next of `args`.
    Assert {
        cond: Operand,
        message: String,
        args: Vec<Operand>,
    },
    /// Records `acc[inds] ⊙= vals`; consumes and returns the accumulator.
    /// (A basic operation, not a SOAC: it has no width and no operator of
    /// its own; the operator is the `withacc` input's.)
    Upd {
        acc: VName,
        inds: Vec<Operand>,
        vals: Vec<Operand>,
    },
    /// A tuning parameter of the compiled program (`#[param(name)] e` in
    /// the source): the `i64` value the user set for `name` (`--param`,
    /// `--tuning`, `futhark_context_config_set_tuning_param`), else
    /// `default`.
    UserParam {
        name: String,
        default: Operand,
    },
}

/// A call of a first-order function.
#[derive(Clone, Debug, PartialEq)]
pub struct Apply {
    pub fun: Symbol,
    pub args: Vec<Operand>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct If {
    pub cond: Operand,
    pub then_br: Body,
    pub else_br: Body,
    pub ret: Vec<Type>,
}

/// Loop parameters with initial values; the loop's values are the
/// parameters' final values.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    pub params: Vec<(Param, Operand)>,
    pub form: LoopForm,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    pub w: Operand,
    pub lam: Lambda,
    pub arrs: Vec<VName>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Reduce {
    pub w: Operand,
    pub comm: bool,
    pub op: AccOp,
    pub arrs: Vec<VName>,
}

/// Inclusive scan.
#[derive(Clone, Debug, PartialEq)]
pub struct Scan {
    pub w: Operand,
    pub op: AccOp,
    pub arrs: Vec<VName>,
}

/// `reduce_by_index`: for each `k < w`, `dests[inds[·][k]] ⊙= vals[k]`
/// (one index array per indexed destination dimension); out-of-bounds
/// indices are ignored. Consumes `dests`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hist {
    pub w: Operand,
    pub dests: Vec<VName>,
    pub op: AccOp,
    pub inds: Vec<VName>,
    pub vals: Vec<VName>,
}

/// Consumes the destination arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    pub w: Operand,
    pub dests: Vec<ScatterDest>,
}

/// The lambda takes one accumulator per input and returns them (updated)
/// followed by extra values; the result is every input's arrays followed
/// by the extra values.
#[derive(Clone, Debug, PartialEq)]
pub struct WithAcc {
    pub inputs: Vec<AccInput>,
    pub lam: Lambda,
}

/// One reduction of a [`Screma`].
#[derive(Clone, Debug, PartialEq)]
pub struct Reduction {
    pub comm: bool,
    pub op: AccOp,
}

/// The fused SOAC (Futhark's `screma`): `lam` maps each row of `arrs` to
/// the inputs of the scans (in order, each of its operator's arity), then
/// of the reductions, then to values returned as mapped arrays. The
/// results are the scans' arrays, the reductions' values, then the mapped
/// arrays. `map`, `scan` and `reduce` are its special cases; fusion
/// (after AD only) produces it.
#[derive(Clone, Debug, PartialEq)]
pub struct Screma {
    pub w: Operand,
    pub arrs: Vec<VName>,
    pub scans: Vec<AccOp>,
    pub reds: Vec<Reduction>,
    pub lam: Lambda,
}

impl Screma {
    /// Number of lambda results consumed by the scans.
    pub fn scan_arity(&self) -> usize {
        self.scans.iter().map(|s| s.neutral.len()).sum()
    }

    /// Number of lambda results consumed by the reductions.
    pub fn red_arity(&self) -> usize {
        self.reds.iter().map(|r| r.op.neutral.len()).sum()
    }
}

/// Second-order array combinators: parallel constructs with lambdas.
#[derive(Clone, Debug, PartialEq)]
pub enum Soac {
    Map(Map),
    Reduce(Reduce),
    Scan(Scan),
    Hist(Hist),
    Scatter(Scatter),
    WithAcc(WithAcc),
    Screma(Screma),
}

/// Forward AD, expanded by the AD pass: results are the lambda's results
/// followed by their tangents.
#[derive(Clone, Debug, PartialEq)]
pub struct Jvp {
    pub lam: Lambda,
    pub primals: Vec<Operand>,
    pub tangents: Vec<Operand>,
}

/// Reverse AD, expanded by the AD pass: results are the lambda's results
/// followed by the adjoints of its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Vjp {
    pub lam: Lambda,
    pub primals: Vec<Operand>,
    pub adjoints: Vec<Operand>,
}

/// `lam(args)` with a custom adjoint (Futhark's `with_vjp`): reverse AD
/// computes the arguments' adjoints as `adj(results, results' adjoints)`
/// instead of differentiating `lam`.
#[derive(Clone, Debug, PartialEq)]
pub struct WithVjp {
    pub lam: Lambda,
    pub adj: Lambda,
    pub args: Vec<Operand>,
}

/// AD operators; the IR checker rejects them after the AD stage.
#[derive(Clone, Debug, PartialEq)]
pub enum AdOp {
    Jvp(Jvp),
    Vjp(Vjp),
    WithVjp(WithVjp),
}

/// An expression, grouped by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    Basic(BasicOp),
    Apply(Apply),
    If(If),
    Loop(Loop),
    Soac(Soac),
    Ad(AdOp),
}

impl Exp {
    /// The operand itself as an expression.
    pub fn atom(o: impl Into<Operand>) -> Exp {
        Exp::Basic(BasicOp::Atom(o.into()))
    }

    pub fn as_basic(&self) -> Option<&BasicOp> {
        match self {
            Exp::Basic(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_soac(&self) -> Option<&Soac> {
        match self {
            Exp::Soac(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Exp::Soac(Soac::Map(m)) => Some(m),
            _ => None,
        }
    }

    pub fn is_ad(&self) -> bool {
        matches!(self, Exp::Ad(_))
    }
}

macro_rules! into_exp {
    ($($ty:ident => $v:ident),*) => {
        $(impl From<$ty> for Exp {
            fn from(x: $ty) -> Exp {
                Exp::$v(x)
            }
        })*
    };
}

into_exp!(BasicOp => Basic, Apply => Apply, If => If, Loop => Loop, Soac => Soac, AdOp => Ad);

macro_rules! into_group {
    ($group:ident, $wrap:ident: $($ty:ident),*) => {
        $(impl From<$ty> for $group {
            fn from(x: $ty) -> $group {
                $group::$ty(x)
            }
        }
        impl From<$ty> for Exp {
            fn from(x: $ty) -> Exp {
                Exp::$wrap($group::$ty(x))
            }
        })*
    };
}

into_group!(Soac, Soac: Map, Reduce, Scan, Hist, Scatter, WithAcc, Screma);
into_group!(AdOp, Ad: Jvp, Vjp, WithVjp);

/// A statement attribute, as Futhark writes them: `#[unroll]`,
/// `#[sequential]`, `#[stripmine(2)]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    Name(String),
    Int(i64),
    Call(String, Vec<Attr>),
}

/// A first-order function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunDef {
    pub name: Symbol,
    pub params: Vec<Param>,
    pub ret: Vec<Type>,
    pub body: Body,
    pub span: Span,
}

/// One external value of an entry point (the core parameters and
/// results of an entry function correspond one-to-one to these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryType {
    pub elem: PrimType,
    pub rank: usize,
    /// Declared `*` (the caller gives up the argument).
    pub unique: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The name callers use.
    pub name: String,
    pub fun: Symbol,
    pub params: Vec<EntryType>,
    pub results: Vec<EntryType>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub funs: Vec<FunDef>,
    pub entries: Vec<EntryPoint>,
    /// Source of fresh names not used anywhere in `funs`.
    pub names: NameSource,
    /// The calls that lowering inlined, each as the span of the call
    /// (see [`Span`]'s `frame`): the backtraces of run-time errors.
    pub frames: Vec<Span>,
}

impl Program {
    /// The calls that `span` sits in, innermost first: where its function
    /// was called, where that caller was called, and so on.
    pub fn backtrace(&self, span: Span) -> Vec<Span> {
        let mut out = vec![];
        let mut frame = span.frame;
        // Each call's frame was made before the calls inside it, so the
        // chain goes strictly down the table; the bound guards the loop
        // against a table that does not come from lowering.
        while frame != 0 && out.len() < self.frames.len() {
            let Some(call) = self.frames.get(frame as usize - 1) else {
                break;
            };
            out.push(*call);
            frame = call.frame;
        }
        out
    }

    pub fn fun(&self, name: Symbol) -> Option<&FunDef> {
        self.funs.iter().find(|f| f.name == name)
    }

    pub fn entry(&self, name: &str) -> Option<&EntryPoint> {
        self.entries.iter().find(|e| e.name == name)
    }
}

impl Body {
    pub fn new(stms: Vec<Stm>, result: Vec<Operand>) -> Body {
        Body { stms, result }
    }
}

impl EntryType {
    pub fn of_type(t: &Type, unique: bool) -> Option<EntryType> {
        Some(EntryType {
            elem: t.elem()?,
            rank: t.rank(),
            unique,
        })
    }
}
