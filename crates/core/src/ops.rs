//! Scalar operators: their names, and which primitive types they accept
//! and produce. Every operator is annotated with the type it works on
//! (e.g. `Add` at `i32`), as in Futhark's core language.

use parad_base::{IntType, PrimType};

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($var),* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$var),*];
            /// The name used by the printer.
            pub fn name(self) -> &'static str {
                match self { $($name::$var => $s),* }
            }
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// Unary operators and one-argument math functions.
    UnOp {
        Neg = "neg", Not = "not", Complement = "complement", Abs = "abs", Signum = "signum",
        Sqrt = "sqrt", Rsqrt = "rsqrt", Cbrt = "cbrt", Exp = "exp", Expm1 = "expm1",
        Log = "log", Log2 = "log2", Log10 = "log10", Log1p = "log1p",
        Sin = "sin", Cos = "cos", Tan = "tan", SinPi = "sinpi", CosPi = "cospi", TanPi = "tanpi",
        Asin = "asin", Acos = "acos", Atan = "atan",
        AsinPi = "asinpi", AcosPi = "acospi", AtanPi = "atanpi",
        Sinh = "sinh", Cosh = "cosh", Tanh = "tanh", Asinh = "asinh", Acosh = "acosh", Atanh = "atanh",
        Gamma = "gamma", Lgamma = "lgamma", Erf = "erf", Erfc = "erfc",
        Ceil = "ceil", Floor = "floor", Trunc = "trunc", Round = "round",
        IsInf = "isinf", IsNan = "isnan",
        Popc = "popc", Clz = "clz", Ctz = "ctz",
    }
}

named_enum! {
    /// Binary operators. On integers `Div`/`Mod` round towards negative
    /// infinity and `Quot`/`Rem` towards zero; on floats `Mod` is `fmod`.
    BinOp {
        Add = "add", Sub = "sub", Mul = "mul", Div = "div", Mod = "mod",
        Quot = "quot", Rem = "rem", Pow = "pow", Min = "min", Max = "max",
        And = "and", Or = "or", Xor = "xor", Shl = "shl", AShr = "ashr", LShr = "lshr",
        Atan2 = "atan2", Atan2Pi = "atan2pi", Hypot = "hypot", CopySign = "copysign",
        NextAfter = "nextafter", Ldexp = "ldexp", MulHi = "mul_hi",
    }
}

named_enum! {
    /// Three-operand operators.
    TernOp { Fma = "fma", Mad = "mad", Lerp = "lerp", MadHi = "mad_hi" }
}

named_enum! {
    /// Comparisons; the result is `bool`. Booleans order `false < true`.
    CmpOp { Eq = "eq", Ne = "ne", Lt = "lt", Le = "le", Gt = "gt", Ge = "ge" }
}

named_enum! {
    /// `Cast` converts values (float→int truncates; NaN and infinities
    /// give 0; int→bool tests for non-zero). `Bitcast` reinterprets the
    /// bits between an integer and a float type of the same width.
    ConvOp { Cast = "cast", Bitcast = "bitcast" }
}

fn is_num(t: PrimType) -> bool {
    !matches!(t, PrimType::Bool)
}
fn is_int(t: PrimType) -> bool {
    matches!(t, PrimType::Int(_))
}
fn is_float(t: PrimType) -> bool {
    matches!(t, PrimType::Float(_))
}

const I32: PrimType = PrimType::Int(IntType::I32);

impl UnOp {
    /// The result type at operand type `t`, or `None` if `t` is not allowed.
    pub fn result_type(self, t: PrimType) -> Option<PrimType> {
        use UnOp::*;
        let ok = match self {
            Neg | Abs | Signum => is_num(t),
            Not => t == PrimType::Bool,
            Complement => is_int(t),
            Popc | Clz | Ctz => return is_int(t).then_some(I32),
            IsInf | IsNan => return is_float(t).then_some(PrimType::Bool),
            _ => is_float(t),
        };
        ok.then_some(t)
    }
}

impl BinOp {
    /// The operand types at annotation `t` (the result type is `t`), or
    /// `None` if `t` is not allowed.
    pub fn operand_types(self, t: PrimType) -> Option<(PrimType, PrimType)> {
        use BinOp::*;
        let ok = match self {
            Add | Sub | Mul | Div | Mod | Pow | Min | Max => is_num(t),
            Quot | Rem | Shl | AShr | LShr | MulHi => is_int(t),
            And | Or | Xor => is_int(t) || t == PrimType::Bool,
            Atan2 | Atan2Pi | Hypot | CopySign | NextAfter => is_float(t),
            Ldexp => return is_float(t).then_some((t, I32)),
        };
        ok.then_some((t, t))
    }
}

impl TernOp {
    pub fn allowed(self, t: PrimType) -> bool {
        match self {
            TernOp::Fma | TernOp::Mad | TernOp::Lerp => is_float(t),
            TernOp::MadHi => is_int(t),
        }
    }
}

impl ConvOp {
    pub fn allowed(self, from: PrimType, to: PrimType) -> bool {
        match self {
            ConvOp::Cast => true,
            ConvOp::Bitcast => {
                (is_int(from) && is_float(to) || is_float(from) && is_int(to))
                    && from.size() == to.size()
            }
        }
    }
}
