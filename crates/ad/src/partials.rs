//! Partial derivatives of scalar operators, shared by both modes: forward
//! mode computes `ẏ = Σᵢ ∂y/∂xᵢ · ẋᵢ`, reverse mode `x̄ᵢ += ∂y/∂xᵢ · ȳ`.
//! `None` is a (static) zero partial.
//!
//! Every primitive type is differentiated, as in Futhark: integers with
//! wrapping arithmetic (integer division and shifts get the derivative
//! of the corresponding integer expression, `mod`/`rem` are treated as
//! the identity in their first operand, bitwise operators have zero
//! partials), booleans in the `(||, &&)` semiring (`!x` has partial `x`,
//! `x && y` has partials `(y, x)`, `x || y` has `(true, false)`).
//! Comparisons, rounding functions and bit counts have zero partials.
//!
//! A partial is a scalar expression ([`PExp`]) left for the caller to
//! multiply by the tangent or adjoint and emit, so an unused partial costs
//! nothing; literals take the operand type `t` (integer and float rules
//! share their code). Subexpressions that several partials share are
//! emitted once, before.

use crate::special::digamma;
use parad_base::PrimType;
use parad_core::pexp::{bin, cmp, eq, if_, le, lt, un};
use parad_core::*;
use std::f64::consts::{LN_10, LN_2, PI};

/// `∂y/∂x` of `y = op x` at operand type `t`.
pub fn unop(b: &mut Builder, op: UnOp, t: PrimType, x: Operand, y: Operand) -> Option<PExp> {
    use UnOp::*;
    match t {
        PrimType::Float(_) => float_unop(b, op, t, x, y),
        PrimType::Int(_) => match op {
            Neg => Some((-1).into()),
            Abs => Some(un(Signum, x)),
            // `!x = -1 - x` in two's complement.
            Complement => Some((-1).into()),
            _ => None,
        },
        PrimType::Bool => match op {
            Not => Some(x.into()),
            _ => None,
        },
    }
}

fn float_unop(b: &mut Builder, op: UnOp, t: PrimType, x: Operand, y: Operand) -> Option<PExp> {
    use UnOp::*;
    Some(match op {
        Neg => (-1.0).into(),
        Abs => un(Signum, x),
        Sqrt => 1.0 / (2.0 * y),
        // y = x^(-1/2): dy/dx = -y / (2x)
        Rsqrt => -0.5 * (y / x),
        Cbrt => 1.0 / (3.0 * (y * y)),
        Exp => y.into(),
        Expm1 => y + 1.0,
        Log => 1.0 / x,
        Log2 => 1.0 / (x * LN_2),
        Log10 => 1.0 / (x * LN_10),
        Log1p => 1.0 / (1.0 + x),
        Sin => un(Cos, x),
        Cos => -un(Sin, x),
        Tan => 1.0 + y * y,
        SinPi => un(CosPi, x) * PI,
        CosPi => un(SinPi, x) * -PI,
        TanPi => (1.0 + y * y) * PI,
        Asin | Acos | AsinPi | AcosPi => {
            let scale = match op {
                Asin => 1.0,
                Acos => -1.0,
                AsinPi => 1.0 / PI,
                _ => -1.0 / PI,
            };
            scale / un(Sqrt, 1.0 - x * x)
        }
        Atan => 1.0 / (1.0 + x * x),
        AtanPi => (1.0 / PI) / (1.0 + x * x),
        Sinh => un(Cosh, x),
        Cosh => un(Sinh, x),
        Tanh => 1.0 - y * y,
        Asinh => 1.0 / un(Sqrt, x * x + 1.0),
        Acosh => 1.0 / un(Sqrt, x * x - 1.0),
        Atanh => 1.0 / (1.0 - x * x),
        Gamma => y * digamma(b, t, x),
        Lgamma => digamma(b, t, x).into(),
        // d erf(x)/dx = 2/√π · exp(-x²)
        Erf => 2.0 / PI.sqrt() * un(Exp, -(x * x)),
        Erfc => -2.0 / PI.sqrt() * un(Exp, -(x * x)),
        Signum | Ceil | Floor | Trunc | Round => return None,
        Not | Complement | IsInf | IsNan | Popc | Clz | Ctz => return None,
    })
}

/// Partial derivatives of `y = op(x, z)` with respect to `x` and `z`;
/// those that take statements of their own are built only if flagged in
/// `want`.
pub fn binop(
    b: &mut Builder,
    op: BinOp,
    t: PrimType,
    x: Operand,
    z: Operand,
    y: Operand,
    want: (bool, bool),
) -> (Option<PExp>, Option<PExp>) {
    use BinOp::*;
    match (op, t) {
        (Add, PrimType::Bool) | (Sub, PrimType::Bool) => (None, None),
        (Add, _) => (Some(1.into()), Some(1.into())),
        (Sub, _) => (Some(1.into()), Some((-1).into())),
        (Mul, _) => (Some(z.into()), Some(x.into())),
        (Min | Max, _) => {
            // Ties go to the left operand.
            let left = b.expr(cmp(if op == Min { CmpOp::Le } else { CmpOp::Ge }, x, z));
            (Some(if_(left, 1, 0)), Some(if_(left, 0, 1)))
        }
        (And, PrimType::Bool) => (Some(z.into()), Some(x.into())),
        (Or, PrimType::Bool) => (Some(1.into()), None),
        (_, PrimType::Bool) => (None, None),
        (_, PrimType::Int(_)) => int_binop(b, op, x, z, want),
        (_, PrimType::Float(_)) => float_binop(b, op, x, z, y),
    }
}

fn int_binop(
    b: &mut Builder,
    op: BinOp,
    x: Operand,
    z: Operand,
    want: (bool, bool),
) -> (Option<PExp>, Option<PExp>) {
    use BinOp::*;
    match op {
        // x/z: (1/z, -x/z²) in integer division; z² may wrap to zero
        // although z is not, and then the partial is taken as zero.
        Div | Quot => {
            let dz = want.1.then(|| {
                let z2 = b.expr(z * z);
                -if_(eq(z2, 0), 0, bin(Quot, x, z2))
            });
            (Some(bin(Quot, 1, z)), dz)
        }
        Mod | Rem => (Some(1.into()), None),
        // z·x^(z-1), zero where z = 0 (x^-1 is not an integer power).
        Pow => (Some(z * bin(Pow, x, if_(eq(z, 0), 0, z - 1))), None),
        // x·2^z.
        Shl => (Some(bin(Shl, 1, z)), None),
        // x / 2^z: the identity when z = 0, else zero.
        AShr | LShr => (Some(if_(eq(z, 0), 1, 0)), None),
        MulHi => (Some(z.into()), Some(x.into())),
        _ => (None, None),
    }
}

fn float_binop(
    b: &mut Builder,
    op: BinOp,
    x: Operand,
    z: Operand,
    y: Operand,
) -> (Option<PExp>, Option<PExp>) {
    use BinOp::*;
    match op {
        Div => (Some(1.0 / z), Some(-(y / z))),
        // fmod(x, z) = x - trunc(x / z)·z
        Mod => (Some(1.into()), Some(-un(UnOp::Trunc, x / z))),
        Pow => (
            // z·x^(z-1), taken as 0 where x = 0 and z < 1 (the kink).
            Some(if_(eq(x, 0) & lt(z, 1), 0, z * bin(Pow, x, z - 1.0))),
            // x^z·log x, taken as 0 where x ≤ 0.
            Some(if_(le(x, 0), 0, y * un(UnOp::Log, x))),
        ),
        Atan2 | Atan2Pi => {
            // atan2(x, z) = atan(x / z): d/dx = z/(x²+z²), d/dz = -x/(x²+z²)
            let s = x * x + z * z;
            let s = b.expr(if op == Atan2Pi { s * PI } else { s });
            (Some(z / s), Some(-(x / s)))
        }
        Hypot => (Some(x / y), Some(z / y)),
        // |x|·sign(z): the sign of x times the sign of the result.
        CopySign => (Some(un(UnOp::Signum, x) * un(UnOp::Signum, y)), None),
        NextAfter => (Some(1.into()), None),
        // x·2^z with an integer z
        Ldexp => (Some(bin(Ldexp, 1, z)), None),
        _ => (None, None),
    }
}

/// Partial derivatives of a three-operand operator.
pub fn ternop(op: TernOp, [x, y, z]: [Operand; 3]) -> [Option<PExp>; 3] {
    match op {
        // x·y + z
        TernOp::Fma | TernOp::Mad | TernOp::MadHi => {
            [Some(y.into()), Some(x.into()), Some(1.into())]
        }
        // lerp(v0, v1, t) = v0 + (v1 - v0)·t
        TernOp::Lerp => [Some(1 - z), Some(z.into()), Some(y - x)],
    }
}
