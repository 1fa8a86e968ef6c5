//! The built-in functions: one table ([`TABLE`], keyed by [`Intrinsic`])
//! with each intrinsic's name, arity, signature and how programs reach
//! it. The type checker types intrinsics from it, the prelude
//! (`prelude/*.fut`) builds every user-visible function on top of the
//! array intrinsics it lists, and lowering dispatches on [`Intrinsic`] and
//! takes the arity from it. All intrinsics are curried functions; an
//! application may be partial.
//!
//! Array intrinsics (`__map`, …) have type parameters of any type; their
//! types are documented on the variants of [`Intrinsic`].
//!
//! Scalar intrinsics have one type parameter `t`, a primitive type of the
//! class in the table (`convert` has two: from, to). They are reached
//! through operators (`+` is `add`), negation (`neg`), `!` (`not`) and the
//! numeric modules (`f32.sqrt` is `sqrt [f32]`), never by name from source
//! programs. `mod` is `%`: the result has the sign of the divisor for
//! integers; `quot` is `//` (truncating), `rem` is `%%`; `eq`/`neq` compare
//! any type without functions structurally; `convert [f, t]` converts
//! between any primitive types (bool converts to 0/1, numbers to bool by
//! `!= 0`).

use crate::tast::{Type, TypeParamId};
use crate::unify::ClassSet;
use parad_base::{FloatType, IntType, PrimType};

/// How programs reach an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// By its name (`__map`), from any program; the prelude builds on
    /// these.
    Name,
    /// By its name and as `intrinsics.NAME`, without the underscores
    /// (the members of Futhark's `intrinsics` module).
    Module,
    /// As a member of the numeric modules (`f32.sqrt`, `i32.min`);
    /// `convert` through type names (`f32.i64`, `i64.to_i64`).
    Member,
    /// Only through an operator (`+` is `add`), not as `f32.add`.
    Operator,
}

/// The type of a scalar intrinsic at its type parameter `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `t -> t -> t`
    Binary,
    /// `t -> t -> bool`
    Compare,
    /// `t -> t`
    Unary,
    /// `t -> bool`
    Predicate,
    /// `t -> i32`
    Count,
    /// `t -> t -> t -> t`
    Ternary,
    /// `t -> i32 -> t`
    Ldexp,
    /// `i64 -> i64 -> t`
    FromFraction,
    /// `i32 -> t -> i32`
    GetBit,
    /// `i32 -> t -> i32 -> t`
    SetBit,
    /// `t -> uN` (`t` a float type of N bits)
    ToBits,
    /// `uN -> t` (`t` a float type of N bits)
    FromBits,
}

/// What the checker needs to type an intrinsic.
#[derive(Clone, Copy)]
pub(crate) enum Sig {
    /// The class of each type parameter, and the type at an instantiation.
    Array(&'static [ClassSet], fn(&[Type]) -> Type),
    /// One type parameter of a class, and the shape of the type.
    Scalar(ClassSet, Shape),
    /// `convert [from, to]: from -> to`.
    Convert,
}

/// One row of [`TABLE`].
pub struct Info {
    pub intrinsic: Intrinsic,
    /// The name in the typed AST ([`crate::tast::TExpKind::Intrinsic`]);
    /// array intrinsics' names are also how programs call them.
    pub name: &'static str,
    /// The number of arguments of a full application.
    pub arity: usize,
    pub reach: Reach,
    pub(crate) sig: Sig,
}

macro_rules! intrinsics {
    ($($(#[doc = $doc:literal])* $var:ident = $name:literal, $arity:literal, $reach:ident,
       $sig:expr;)*) => {
        /// An intrinsic: the key of its row of [`TABLE`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Intrinsic {
            $($(#[doc = $doc])* $var,)*
        }

        impl Intrinsic {
            /// Every intrinsic, in the order of [`TABLE`].
            pub const ALL: &'static [Intrinsic] = &[$(Intrinsic::$var),*];

            /// The intrinsic of that name (see [`Info::name`]).
            pub fn from_name(name: &str) -> Option<Intrinsic> {
                match name {
                    $($name => Some(Intrinsic::$var),)*
                    _ => None,
                }
            }
        }

        /// Every intrinsic, one row each, in the order of [`Intrinsic`].
        pub static TABLE: &[Info] = &[$(Info {
            intrinsic: Intrinsic::$var,
            name: $name,
            arity: $arity,
            reach: Reach::$reach,
            sig: $sig,
        }),*];
    };
}

const ANY: ClassSet = ClassSet::ANY;
const NUM: ClassSet = ClassSet::NUM;
const INT: ClassSet = ClassSet::INT;
const FLOAT: ClassSet = ClassSet::FLOAT;
const INT_BOOL: ClassSet = ClassSet::INT_BOOL;
use Shape::*;
use Sig::Scalar as S;

intrinsics! {
    /// `__map [a b]: (a -> b) -> []a -> []b`
    Map = "__map", 2, Name, Sig::Array(&[ANY, ANY], |t| {
        f(&[Type::arrow(a(t), b(t)), arr(a(t), 1)], arr(b(t), 1))
    });
    /// `__reduce [a]: (a -> a -> a) -> a -> []a -> a` (associative
    /// operator)
    Reduce = "__reduce", 3, Name, Sig::Array(&[ANY], |t| {
        f(&[op2(t), a(t), arr(a(t), 1)], a(t))
    });
    /// `__reduce_comm [a]`: as `__reduce`, the operator also commutative
    ReduceComm = "__reduce_comm", 3, Name, Sig::Array(&[ANY], |t| {
        f(&[op2(t), a(t), arr(a(t), 1)], a(t))
    });
    /// `__scan [a]: (a -> a -> a) -> a -> []a -> []a` (inclusive)
    Scan = "__scan", 3, Name, Sig::Array(&[ANY], |t| {
        f(&[op2(t), a(t), arr(a(t), 1)], arr(a(t), 1))
    });
    /// `__hist [a]: []a -> (a -> a -> a) -> a -> []i64 -> []a -> []a`
    /// (reduce_by_index into a destination; out-of-range indices ignored)
    Hist = "__hist", 5, Name, Sig::Array(&[ANY], |t| {
        let is = arr(Type::i64(), 1);
        f(&[arr(a(t), 1), op2(t), a(t), is, arr(a(t), 1)], arr(a(t), 1))
    });
    /// `__scatter [a]: []a -> []i64 -> []a -> []a` (out-of-range ignored)
    Scatter = "__scatter", 3, Name, Sig::Array(&[ANY], |t| {
        f(&[arr(a(t), 1), arr(Type::i64(), 1), arr(a(t), 1)], arr(a(t), 1))
    });
    /// `__hole [a]: []u8 -> a`: a typed hole (`???`) with the message of
    /// the run-time error that evaluating it is (see
    /// [`crate::tast::hole_message`])
    Hole = "__hole", 1, Name, Sig::Array(&[ANY], |t| {
        f(&[arr(Type::Prim(PrimType::Int(IntType::U8)), 1)], a(t))
    });
    /// `__iota: i64 -> []i64`
    Iota = "__iota", 1, Name, Sig::Array(&[], |_| {
        f(&[Type::i64()], arr(Type::i64(), 1))
    });
    /// `__replicate [a]: i64 -> a -> []a`
    Replicate = "__replicate", 2, Name, Sig::Array(&[ANY], |t| {
        f(&[Type::i64(), a(t)], arr(a(t), 1))
    });
    /// `__concat [a]: []a -> []a -> []a`
    Concat = "__concat", 2, Name, Sig::Array(&[ANY], |t| {
        f(&[arr(a(t), 1), arr(a(t), 1)], arr(a(t), 1))
    });
    /// `__transpose [a]: [][]a -> [][]a` (swaps the two outer dimensions)
    Transpose = "__transpose", 1, Name, Sig::Array(&[ANY], |t| {
        f(&[arr(a(t), 2)], arr(a(t), 2))
    });
    /// `__flatten [a]: [][]a -> []a`
    Flatten = "__flatten", 1, Name, Sig::Array(&[ANY], |t| {
        f(&[arr(a(t), 2)], arr(a(t), 1))
    });
    /// `__unflatten [a]: i64 -> i64 -> []a -> [][]a` (n, m, array of n*m)
    Unflatten = "__unflatten", 3, Name, Sig::Array(&[ANY], |t| {
        f(&[Type::i64(), Type::i64(), arr(a(t), 1)], arr(a(t), 2))
    });
    /// `__zip [a b]: []a -> []b -> [](a, b)` (lengths must agree)
    Zip = "__zip", 2, Name, Sig::Array(&[ANY, ANY], |t| {
        let ab = Type::Tuple(vec![a(t), b(t)]);
        f(&[arr(a(t), 1), arr(b(t), 1)], arr(ab, 1))
    });
    /// `__unzip [a b]: [](a, b) -> ([]a, []b)`
    Unzip = "__unzip", 1, Name, Sig::Array(&[ANY, ANY], |t| {
        let ab = Type::Tuple(vec![a(t), b(t)]);
        f(&[arr(ab, 1)], Type::Tuple(vec![arr(a(t), 1), arr(b(t), 1)]))
    });
    /// `__copy [a]: a -> a` (a fresh, unshared copy)
    Copy = "__copy", 1, Name, Sig::Array(&[ANY], |t| f(&[a(t)], a(t)));
    /// `__jvp2 [a b]: (a -> b) -> a -> a -> (b, b)` (primal, tangent)
    Jvp2 = "__jvp2", 3, Name, Sig::Array(&[ANY, ANY], |t| {
        f(&[Type::arrow(a(t), b(t)), a(t), a(t)], Type::Tuple(vec![b(t), b(t)]))
    });
    /// `__vjp2 [a b]: (a -> b) -> a -> b -> (b, a)` (primal, cotangent)
    Vjp2 = "__vjp2", 3, Name, Sig::Array(&[ANY, ANY], |t| {
        f(&[Type::arrow(a(t), b(t)), a(t), b(t)], Type::Tuple(vec![b(t), a(t)]))
    });
    /// `__with_vjp [a b]: (a -> b) -> (b -> b -> a) -> a -> b` (custom
    /// adjoint: result, result's cotangent ↦ argument's cotangent)
    WithVjp = "__with_vjp", 3, Name, Sig::Array(&[ANY, ANY], |t| {
        let adj = Type::arrow(b(t), Type::arrow(b(t), a(t)));
        f(&[Type::arrow(a(t), b(t)), adj, a(t)], b(t))
    });
    /// `__scatter_stream [a b]: []a -> (acc([]a) -> b -> acc([]a)) -> []b
    /// -> []a` (the function writes through the accumulator, one call per
    /// element; later writes win)
    ScatterStream = "__scatter_stream", 3, Module, Sig::Array(&[ANY, ANY], |t| {
        f(&[arr(a(t), 1), acc_fn(t), arr(b(t), 1)], arr(a(t), 1))
    });
    /// `__hist_stream [a b]: []a -> (a -> a -> a) -> a -> (acc([]a) -> b
    /// -> acc([]a)) -> []b -> []a` (as `__scatter_stream`, writes combined
    /// with the operator)
    HistStream = "__hist_stream", 5, Module, Sig::Array(&[ANY, ANY], |t| {
        f(&[arr(a(t), 1), op2(t), a(t), acc_fn(t), arr(b(t), 1)], arr(a(t), 1))
    });
    /// `__acc_write [a]: acc([]a) -> i64 -> a -> acc([]a)` (out-of-range
    /// ignored)
    AccWrite = "__acc_write", 3, Module, Sig::Array(&[ANY], |t| {
        let acc = Type::Acc(Box::new(arr(a(t), 1)));
        f(&[acc.clone(), Type::i64(), a(t)], acc)
    });
    /// `__flatmap [a b c]: (a -> ([]b, c)) -> []a -> ([]i64, []bool,
    /// []i64, []b, []c)` (shapes, flags, offsets, data, values)
    Flatmap = "__flatmap", 2, Module, Sig::Array(&[ANY, ANY, ANY], |t| {
        let c = t[2].clone();
        let fun = Type::arrow(a(t), Type::Tuple(vec![arr(b(t), 1), c.clone()]));
        let i64s = arr(Type::i64(), 1);
        let res = vec![i64s.clone(), arr(Type::bool(), 1), i64s, arr(b(t), 1), arr(c, 1)];
        f(&[fun, arr(a(t), 1)], Type::Tuple(res))
    });
    /// `__flat_index_2d [a]: []a -> i64 -> i64 -> i64 -> i64 -> i64 ->
    /// [][]a`: a 2-dimensional view of a flat array (offset, then a
    /// (size, stride) pair per dimension)
    FlatIndex2d = "__flat_index_2d", 6, Module, Sig::Array(&[ANY], |t| flat_index(t, 2));
    /// `__flat_index_3d`: as `__flat_index_2d`, 3 dimensions
    FlatIndex3d = "__flat_index_3d", 8, Module, Sig::Array(&[ANY], |t| flat_index(t, 3));
    /// `__flat_index_4d`: as `__flat_index_2d`, 4 dimensions
    FlatIndex4d = "__flat_index_4d", 10, Module, Sig::Array(&[ANY], |t| flat_index(t, 4));
    /// `__flat_update_2d [a]: []a -> i64 -> i64 -> i64 -> [][]a -> []a`:
    /// the write of a 2-dimensional array through a view (offset, a
    /// stride per dimension)
    FlatUpdate2d = "__flat_update_2d", 5, Module, Sig::Array(&[ANY], |t| flat_update(t, 2));
    /// `__flat_update_3d`: as `__flat_update_2d`, 3 dimensions
    FlatUpdate3d = "__flat_update_3d", 6, Module, Sig::Array(&[ANY], |t| flat_update(t, 3));
    /// `__flat_update_4d`: as `__flat_update_2d`, 4 dimensions
    FlatUpdate4d = "__flat_update_4d", 7, Module, Sig::Array(&[ANY], |t| flat_update(t, 4));

    Add = "add", 2, Operator, S(NUM, Binary);
    Sub = "sub", 2, Operator, S(NUM, Binary);
    Mul = "mul", 2, Operator, S(NUM, Binary);
    Div = "div", 2, Operator, S(NUM, Binary);
    Mod = "mod", 2, Operator, S(NUM, Binary);
    Pow = "pow", 2, Operator, S(NUM, Binary);
    Min = "min", 2, Member, S(NUM, Binary);
    Max = "max", 2, Member, S(NUM, Binary);
    Quot = "quot", 2, Operator, S(INT, Binary);
    Rem = "rem", 2, Operator, S(INT, Binary);
    And = "and", 2, Operator, S(INT, Binary);
    Or = "or", 2, Operator, S(INT, Binary);
    Xor = "xor", 2, Operator, S(INT, Binary);
    Shl = "shl", 2, Operator, S(INT, Binary);
    Shr = "shr", 2, Operator, S(INT, Binary);
    Ushr = "ushr", 2, Operator, S(INT, Binary);
    MulHi = "mul_hi", 2, Member, S(INT, Binary);
    Atan2 = "atan2", 2, Member, S(FLOAT, Binary);
    Atan2Pi = "atan2pi", 2, Member, S(FLOAT, Binary);
    Hypot = "hypot", 2, Member, S(FLOAT, Binary);
    NextAfter = "nextafter", 2, Member, S(FLOAT, Binary);
    CopySign = "copysign", 2, Member, S(FLOAT, Binary);
    Lt = "lt", 2, Operator, S(NUM, Compare);
    Le = "le", 2, Operator, S(NUM, Compare);
    Gt = "gt", 2, Operator, S(NUM, Compare);
    Ge = "ge", 2, Operator, S(NUM, Compare);
    Eq = "eq", 2, Operator, S(ANY, Compare);
    Neq = "neq", 2, Operator, S(ANY, Compare);
    Neg = "neg", 1, Member, S(NUM, Unary);
    Abs = "abs", 1, Member, S(NUM, Unary);
    Sgn = "sgn", 1, Member, S(NUM, Unary);
    Not = "not", 1, Member, S(INT_BOOL, Unary);
    Recip = "recip", 1, Member, S(FLOAT, Unary);
    Sqrt = "sqrt", 1, Member, S(FLOAT, Unary);
    Rsqrt = "rsqrt", 1, Member, S(FLOAT, Unary);
    Cbrt = "cbrt", 1, Member, S(FLOAT, Unary);
    Exp = "exp", 1, Member, S(FLOAT, Unary);
    Expm1 = "expm1", 1, Member, S(FLOAT, Unary);
    Log = "log", 1, Member, S(FLOAT, Unary);
    Log2 = "log2", 1, Member, S(FLOAT, Unary);
    Log10 = "log10", 1, Member, S(FLOAT, Unary);
    Log1p = "log1p", 1, Member, S(FLOAT, Unary);
    Sin = "sin", 1, Member, S(FLOAT, Unary);
    Cos = "cos", 1, Member, S(FLOAT, Unary);
    Tan = "tan", 1, Member, S(FLOAT, Unary);
    SinPi = "sinpi", 1, Member, S(FLOAT, Unary);
    CosPi = "cospi", 1, Member, S(FLOAT, Unary);
    TanPi = "tanpi", 1, Member, S(FLOAT, Unary);
    Asin = "asin", 1, Member, S(FLOAT, Unary);
    Acos = "acos", 1, Member, S(FLOAT, Unary);
    Atan = "atan", 1, Member, S(FLOAT, Unary);
    AsinPi = "asinpi", 1, Member, S(FLOAT, Unary);
    AcosPi = "acospi", 1, Member, S(FLOAT, Unary);
    AtanPi = "atanpi", 1, Member, S(FLOAT, Unary);
    Sinh = "sinh", 1, Member, S(FLOAT, Unary);
    Cosh = "cosh", 1, Member, S(FLOAT, Unary);
    Tanh = "tanh", 1, Member, S(FLOAT, Unary);
    Asinh = "asinh", 1, Member, S(FLOAT, Unary);
    Acosh = "acosh", 1, Member, S(FLOAT, Unary);
    Atanh = "atanh", 1, Member, S(FLOAT, Unary);
    Gamma = "gamma", 1, Member, S(FLOAT, Unary);
    Lgamma = "lgamma", 1, Member, S(FLOAT, Unary);
    Erf = "erf", 1, Member, S(FLOAT, Unary);
    Erfc = "erfc", 1, Member, S(FLOAT, Unary);
    Ceil = "ceil", 1, Member, S(FLOAT, Unary);
    Floor = "floor", 1, Member, S(FLOAT, Unary);
    Trunc = "trunc", 1, Member, S(FLOAT, Unary);
    Round = "round", 1, Member, S(FLOAT, Unary);
    IsNan = "isnan", 1, Member, S(FLOAT, Predicate);
    IsInf = "isinf", 1, Member, S(FLOAT, Predicate);
    Popc = "popc", 1, Member, S(INT, Count);
    Clz = "clz", 1, Member, S(INT, Count);
    Ctz = "ctz", 1, Member, S(INT, Count);
    Fma = "fma", 3, Member, S(FLOAT, Ternary);
    Mad = "mad", 3, Member, S(FLOAT, Ternary);
    Lerp = "lerp", 3, Member, S(FLOAT, Ternary);
    MadHi = "mad_hi", 3, Member, S(INT, Ternary);
    Ldexp = "ldexp", 2, Member, S(FLOAT, Shape::Ldexp);
    FromFraction = "from_fraction", 2, Member, S(FLOAT, Shape::FromFraction);
    GetBit = "get_bit", 2, Member, S(NUM, Shape::GetBit);
    SetBit = "set_bit", 3, Member, S(NUM, Shape::SetBit);
    ToBits = "to_bits", 1, Member, S(FLOAT, Shape::ToBits);
    FromBits = "from_bits", 1, Member, S(FLOAT, Shape::FromBits);
    Convert = "convert", 1, Member, Sig::Convert;
}

impl Intrinsic {
    /// This intrinsic's row of the table.
    pub fn info(self) -> &'static Info {
        &TABLE[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The number of arguments of a full application.
    pub fn arity(self) -> usize {
        self.info().arity
    }

    pub fn reach(self) -> Reach {
        self.info().reach
    }

    /// An array intrinsic (`__map`, …), as opposed to a scalar one.
    pub fn is_array(self) -> bool {
        matches!(self.info().sig, Sig::Array(..))
    }

    /// The class of a scalar intrinsic's type parameter.
    pub(crate) fn scalar_class(self) -> Option<ClassSet> {
        match self.info().sig {
            Sig::Scalar(class, _) => Some(class),
            _ => None,
        }
    }

    /// The type at the instantiation `inst` of the type parameters, or
    /// `None` if `inst` does not fit (wrong number; `to_bits`/`from_bits`
    /// need a known float type, `convert` primitive types).
    pub fn type_at(self, inst: &[Type]) -> Option<Type> {
        match self.info().sig {
            Sig::Array(params, build) => (params.len() == inst.len()).then(|| build(inst)),
            Sig::Scalar(_, shape) => match inst {
                [t] => scalar_type(shape, t),
                _ => None,
            },
            Sig::Convert => match inst {
                [Type::Prim(from), Type::Prim(to)] => Some(convert_type(*from, *to)),
                _ => None,
            },
        }
    }
}

impl std::fmt::Display for Intrinsic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the checker needs to know about an array intrinsic: the class of
/// each type parameter and the type at an instantiation.
pub(crate) struct Signature {
    pub name: &'static str,
    pub params: &'static [ClassSet],
    pub build: fn(&[Type]) -> Type,
}

fn array_signature(i: Intrinsic) -> Option<Signature> {
    match i.info().sig {
        Sig::Array(params, build) => Some(Signature {
            name: i.name(),
            params,
            build,
        }),
        _ => None,
    }
}

/// Looks up an array intrinsic by its source name (`__map`, …).
pub(crate) fn array_intrinsic(name: &str) -> Option<Signature> {
    array_signature(Intrinsic::from_name(name)?)
}

/// The array intrinsic that programs reach as `intrinsics.member`.
pub(crate) fn module_intrinsic(member: &str) -> Option<Signature> {
    let i = Intrinsic::from_name(&format!("__{member}"))?;
    if i.reach() != Reach::Module {
        return None;
    }
    array_signature(i)
}

/// The generic signature of an array intrinsic, with type parameters
/// `Param(0)`, `Param(1)`, … (for documentation and tests).
pub fn array_intrinsic_type(name: &str) -> Option<Type> {
    let s = array_intrinsic(name)?;
    let ps: Vec<Type> = (0..s.params.len() as u32).map(p).collect();
    Some((s.build)(&ps))
}

/// All array intrinsic names.
pub fn array_intrinsic_names() -> impl Iterator<Item = &'static str> {
    TABLE
        .iter()
        .filter(|r| r.intrinsic.is_array())
        .map(|r| r.name)
}

/// The type of scalar intrinsic `i` at type `t` (a primitive type, or an
/// inference variable of the right class). `to_bits`/`from_bits` need a
/// known float type.
pub(crate) fn scalar_intrinsic_type(i: Intrinsic, t: &Type) -> Option<Type> {
    match i.info().sig {
        Sig::Scalar(_, shape) => scalar_type(shape, t),
        _ => None,
    }
}

fn scalar_type(shape: Shape, t: &Type) -> Option<Type> {
    let t = t.clone();
    let i32t = Type::i32();
    Some(match shape {
        Binary => f(&[t.clone(), t.clone()], t),
        Compare => f(&[t.clone(), t], Type::bool()),
        Unary => Type::arrow(t.clone(), t),
        Predicate => f(&[t], Type::bool()),
        Count => f(&[t], i32t),
        Ternary => f(&[t.clone(), t.clone(), t.clone()], t),
        Shape::Ldexp => f(&[t.clone(), i32t], t),
        Shape::FromFraction => f(&[Type::i64(), Type::i64()], t),
        Shape::GetBit => f(&[i32t.clone(), t], i32t),
        Shape::SetBit => f(&[i32t.clone(), t.clone(), i32t], t),
        Shape::ToBits | Shape::FromBits => {
            let Type::Prim(PrimType::Float(ft)) = t else {
                return None;
            };
            let bits = Type::Prim(PrimType::Int(match ft {
                FloatType::F16 => IntType::U16,
                FloatType::F32 => IntType::U32,
                FloatType::F64 => IntType::U64,
            }));
            if shape == Shape::ToBits {
                f(&[t], bits)
            } else {
                f(&[bits], t)
            }
        }
    })
}

/// `convert [from, to]`.
pub(crate) fn convert_type(from: PrimType, to: PrimType) -> Type {
    Type::arrow(Type::Prim(from), Type::Prim(to))
}

fn p(i: u32) -> Type {
    Type::Param(TypeParamId(i))
}

fn arr(t: Type, r: u32) -> Type {
    Type::array(t, r)
}

fn a(ts: &[Type]) -> Type {
    ts[0].clone()
}

fn b(ts: &[Type]) -> Type {
    ts[1].clone()
}

fn f(params: &[Type], ret: Type) -> Type {
    Type::arrows(params.to_vec(), ret)
}

/// `a -> a -> a`: the operator of reductions and scans.
fn op2(t: &[Type]) -> Type {
    f(&[a(t), a(t)], a(t))
}

/// `acc([]a) -> b -> acc([]a)`: the function of the stream intrinsics.
fn acc_fn(t: &[Type]) -> Type {
    let acc = Type::Acc(Box::new(arr(a(t), 1)));
    f(&[acc.clone(), b(t)], acc)
}

fn flat_index(t: &[Type], d: u32) -> Type {
    let mut ps = vec![arr(a(t), 1), Type::i64()];
    ps.extend((0..2 * d).map(|_| Type::i64()));
    f(&ps, arr(a(t), d))
}

fn flat_update(t: &[Type], d: u32) -> Type {
    let mut ps = vec![arr(a(t), 1), Type::i64()];
    ps.extend((0..d).map(|_| Type::i64()));
    ps.push(arr(a(t), d));
    f(&ps, arr(a(t), 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_base::PrimType;

    /// The number of arguments a function type takes.
    fn params(t: &Type) -> usize {
        match t {
            Type::Arrow(_, r) => 1 + params(r),
            _ => 0,
        }
    }

    /// An instantiation of `i`'s type parameters that its classes admit.
    fn sample(i: Intrinsic) -> Vec<Type> {
        let prim = |c: ClassSet| {
            let candidates = [
                PrimType::Float(FloatType::F32),
                PrimType::Int(IntType::I32),
                PrimType::Bool,
            ];
            Type::Prim(*candidates.iter().find(|p| c.admits(**p)).unwrap())
        };
        match i.info().sig {
            Sig::Array(ps, _) => (0..ps.len() as u32).map(p).collect(),
            Sig::Scalar(c, _) => vec![prim(c)],
            Sig::Convert => vec![Type::i32(), prim(FLOAT)],
        }
    }

    #[test]
    fn table_is_in_the_order_of_the_keys() {
        assert_eq!(TABLE.len(), Intrinsic::ALL.len());
        for (k, row) in TABLE.iter().enumerate() {
            assert_eq!(row.intrinsic as usize, k, "{}", row.name);
            assert_eq!(Intrinsic::ALL[k], row.intrinsic);
            assert_eq!(Intrinsic::from_name(row.name), Some(row.intrinsic));
        }
        assert_eq!(Intrinsic::from_name("__nosuch"), None);
    }

    #[test]
    fn arity_is_the_number_of_parameters_of_the_signature() {
        for &i in Intrinsic::ALL {
            let ty = i
                .type_at(&sample(i))
                .unwrap_or_else(|| panic!("{i} has no type at {:?}", sample(i)));
            assert_eq!(params(&ty), i.arity(), "arity of {i}: {ty:?}");
        }
    }

    #[test]
    fn array_intrinsics_are_reached_by_name() {
        for &i in Intrinsic::ALL {
            let by_name = matches!(i.reach(), Reach::Name | Reach::Module);
            assert_eq!(i.is_array(), by_name, "{i}");
            assert_eq!(i.is_array(), i.name().starts_with("__"), "{i}");
        }
        assert_eq!(
            module_intrinsic("scatter_stream").map(|s| s.name),
            Some("__scatter_stream")
        );
        assert!(module_intrinsic("map").is_none());
        assert!(array_intrinsic("add").is_none());
    }

    /// Every `__name` that the prelude mentions is an array intrinsic of
    /// the table.
    #[test]
    fn prelude_intrinsics_are_in_the_table() {
        let mut seen = 0;
        for (file, src) in crate::prelude::FILES {
            let bytes = src.as_bytes();
            let mut k = 0;
            while let Some(at) = src[k..].find("__") {
                let start = k + at;
                let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
                let mut end = start;
                while end < bytes.len() && ident(bytes[end]) {
                    end += 1;
                }
                let before_ok = start == 0 || !ident(bytes[start - 1]);
                let name = &src[start..end];
                if before_ok {
                    let i = Intrinsic::from_name(name)
                        .unwrap_or_else(|| panic!("{file}: '{name}' is not in the table"));
                    assert!(i.is_array(), "{file}: '{name}' is not an array intrinsic");
                    seen += 1;
                }
                k = end.max(start + 2);
            }
        }
        assert!(seen > 100, "only {seen} uses of intrinsics in the prelude");
    }
}
