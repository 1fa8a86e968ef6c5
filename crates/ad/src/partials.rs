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

use crate::linear::{const_of, select};
use crate::special::digamma;
use parad_base::PrimType;
use parad_core::*;
use std::f64::consts::{LN_10, LN_2, PI};

fn c(t: PrimType, x: f64) -> Operand {
    const_of(t, x)
}

/// `∂y/∂x` of `y = op x` at operand type `t`.
pub fn unop(b: &mut Builder, op: UnOp, t: PrimType, x: Operand, y: Operand) -> Option<Operand> {
    use UnOp::*;
    match t {
        PrimType::Float(_) => float_unop(b, op, t, x, y),
        PrimType::Int(_) => match op {
            Neg => Some(c(t, -1.0)),
            Abs => Some(b.unop(Signum, x).into()),
            // `!x = -1 - x` in two's complement.
            Complement => Some(c(t, -1.0)),
            _ => None,
        },
        PrimType::Bool => match op {
            Not => Some(x),
            _ => None,
        },
    }
}

fn float_unop(b: &mut Builder, op: UnOp, t: PrimType, x: Operand, y: Operand) -> Option<Operand> {
    use UnOp::*;
    let one = c(t, 1.0);
    let recip = |b: &mut Builder, d: VName| -> Operand { b.div(one, d).into() };
    let d: Operand = match op {
        Neg => c(t, -1.0),
        Abs => b.unop(Signum, x).into(),
        Sqrt => {
            let d = b.mul(c(t, 2.0), y);
            recip(b, d)
        }
        // y = x^(-1/2): dy/dx = -y / (2x)
        Rsqrt => {
            let q = b.div(y, x);
            b.mul(c(t, -0.5), q).into()
        }
        Cbrt => {
            let y2 = b.mul(y, y);
            let d = b.mul(c(t, 3.0), y2);
            recip(b, d)
        }
        Exp => y,
        Expm1 => b.add(y, one).into(),
        Log => b.div(one, x).into(),
        Log2 => {
            let d = b.mul(x, c(t, LN_2));
            recip(b, d)
        }
        Log10 => {
            let d = b.mul(x, c(t, LN_10));
            recip(b, d)
        }
        Log1p => {
            let d = b.add(one, x);
            recip(b, d)
        }
        Sin => b.unop(Cos, x).into(),
        Cos => {
            let s = b.unop(Sin, x);
            b.neg(s).into()
        }
        Tan => {
            let y2 = b.mul(y, y);
            b.add(one, y2).into()
        }
        SinPi => {
            let cp = b.unop(CosPi, x);
            b.mul(cp, c(t, PI)).into()
        }
        CosPi => {
            let sp = b.unop(SinPi, x);
            b.mul(sp, c(t, -PI)).into()
        }
        TanPi => {
            let y2 = b.mul(y, y);
            let s = b.add(one, y2);
            b.mul(s, c(t, PI)).into()
        }
        Asin | Acos | AsinPi | AcosPi => {
            let x2 = b.mul(x, x);
            let s = b.sub(one, x2);
            let r = b.unop(Sqrt, s);
            let scale = match op {
                Asin => 1.0,
                Acos => -1.0,
                AsinPi => 1.0 / PI,
                _ => -1.0 / PI,
            };
            b.div(c(t, scale), r).into()
        }
        Atan | AtanPi => {
            let x2 = b.mul(x, x);
            let s = b.add(one, x2);
            let scale = if op == Atan { 1.0 } else { 1.0 / PI };
            b.div(c(t, scale), s).into()
        }
        Sinh => b.unop(Cosh, x).into(),
        Cosh => b.unop(Sinh, x).into(),
        Tanh => {
            let y2 = b.mul(y, y);
            b.sub(one, y2).into()
        }
        Asinh | Acosh => {
            let x2 = b.mul(x, x);
            let s = if op == Asinh {
                b.add(x2, one)
            } else {
                b.sub(x2, one)
            };
            let r = b.unop(Sqrt, s);
            recip(b, r)
        }
        Atanh => {
            let x2 = b.mul(x, x);
            let s = b.sub(one, x2);
            recip(b, s)
        }
        Gamma => {
            let d = digamma(b, t, x);
            b.mul(y, d).into()
        }
        Lgamma => digamma(b, t, x),
        Erf | Erfc => {
            // d erf(x)/dx = 2/√π · exp(-x²)
            let x2 = b.mul(x, x);
            let nx2 = b.neg(x2);
            let e = b.unop(Exp, nx2);
            let k = 2.0 / PI.sqrt() * if op == Erf { 1.0 } else { -1.0 };
            b.mul(c(t, k), e).into()
        }
        Signum | Ceil | Floor | Trunc | Round => return None,
        Not | Complement | IsInf | IsNan | Popc | Clz | Ctz => return None,
    };
    Some(d)
}

/// Partial derivatives of `y = op(x, z)` with respect to `x` and `z`;
/// only those flagged in `want` need be computed.
pub fn binop(
    b: &mut Builder,
    op: BinOp,
    t: PrimType,
    x: Operand,
    z: Operand,
    y: Operand,
    want: (bool, bool),
) -> (Option<Operand>, Option<Operand>) {
    use BinOp::*;
    let one = c(t, 1.0);
    let zero = c(t, 0.0);
    match (op, t) {
        (Add, PrimType::Bool) | (Sub, PrimType::Bool) => (None, None),
        (Add, _) => (Some(one), Some(one)),
        (Sub, _) => (Some(one), Some(c(t, -1.0))),
        (Mul, _) => (Some(z), Some(x)),
        (Min | Max, _) => {
            // Ties go to the left operand.
            let cmp = if op == Min { CmpOp::Le } else { CmpOp::Ge };
            let left = b.cmp(cmp, x, z);
            let dx = select(b, left, one, zero);
            let dz = select(b, left, zero, one);
            (Some(dx), Some(dz))
        }
        (And, PrimType::Bool) => (Some(z), Some(x)),
        (Or, PrimType::Bool) => (Some(one), None),
        (_, PrimType::Bool) => (None, None),
        (_, PrimType::Int(_)) => int_binop(b, op, t, x, z, want),
        (_, PrimType::Float(_)) => float_binop(b, op, t, x, z, y, want),
    }
}

fn int_binop(
    b: &mut Builder,
    op: BinOp,
    t: PrimType,
    x: Operand,
    z: Operand,
    want: (bool, bool),
) -> (Option<Operand>, Option<Operand>) {
    use BinOp::*;
    let one = c(t, 1.0);
    let zero = c(t, 0.0);
    match op {
        // x/z: (1/z, -x/z²) in integer division; z² may wrap to zero
        // although z is not, and then the partial is taken as zero.
        Div | Quot => {
            let dx = want.0.then(|| b.binop(Quot, one, z).into());
            let dz = want.1.then(|| {
                let z2 = b.mul(z, z);
                let is0 = b.cmp(CmpOp::Eq, z2, zero);
                let q = safe_quot(b, x, z2.into(), is0.into(), zero);
                b.neg(q).into()
            });
            (dx, dz)
        }
        Mod | Rem => (Some(one), None),
        // z·x^(z-1), zero where z = 0 (x^-1 is not an integer power).
        Pow => {
            let dx = want.0.then(|| {
                let is0 = b.cmp(CmpOp::Eq, z, zero);
                let zm1 = b.sub(z, one);
                let e = select(b, is0, zero, zm1);
                let p = b.binop(Pow, x, e);
                let d = b.mul(z, p);
                d.into()
            });
            (dx, None)
        }
        // x·2^z.
        Shl => (want.0.then(|| b.binop(Shl, one, z).into()), None),
        // x / 2^z: the identity when z = 0, else zero.
        AShr | LShr => {
            let dx = want.0.then(|| {
                let is0 = b.cmp(CmpOp::Eq, z, zero);
                select(b, is0, one, zero)
            });
            (dx, None)
        }
        MulHi => (Some(z), Some(x)),
        _ => (None, None),
    }
}

/// `x quot d`, or `zero` when `is0` holds (d = 0).
fn safe_quot(b: &mut Builder, x: Operand, d: Operand, is0: Operand, zero: Operand) -> Operand {
    let t = b.type_of(zero);
    let then_br = b.body(|_| vec![zero]);
    let else_br = b.body(|b| vec![b.binop(BinOp::Quot, x, d).into()]);
    b.emit(Exp::If(If {
        cond: is0,
        then_br,
        else_br,
        ret: vec![t],
    }))[0]
        .into()
}

fn float_binop(
    b: &mut Builder,
    op: BinOp,
    t: PrimType,
    x: Operand,
    z: Operand,
    y: Operand,
    want: (bool, bool),
) -> (Option<Operand>, Option<Operand>) {
    use BinOp::*;
    let one = c(t, 1.0);
    let zero = c(t, 0.0);
    match op {
        Div => {
            let dx = b.div(one, z);
            let dz = want.1.then(|| {
                let q = b.div(y, z);
                b.neg(q).into()
            });
            (Some(dx.into()), dz)
        }
        // fmod(x, z) = x - trunc(x / z)·z
        Mod => {
            let dz = want.1.then(|| {
                let q = b.div(x, z);
                let tq = b.unop(UnOp::Trunc, q);
                b.neg(tq).into()
            });
            (Some(one), dz)
        }
        Pow => {
            // z·x^(z-1), taken as 0 where x = 0 and z < 1 (the kink).
            let dx = want.0.then(|| {
                let zm1 = b.sub(z, one);
                let p = b.binop(Pow, x, zm1);
                let d = b.mul(z, p);
                let x0 = b.cmp(CmpOp::Eq, x, zero);
                let zl1 = b.cmp(CmpOp::Lt, z, one);
                let kink = b.binop(And, x0, zl1);
                select(b, kink, zero, d)
            });
            // x^z·log x, taken as 0 where x ≤ 0.
            let dz = want.1.then(|| {
                let l = b.unop(UnOp::Log, x);
                let m = b.mul(y, l);
                let le0 = b.cmp(CmpOp::Le, x, zero);
                select(b, le0, zero, m)
            });
            (dx, dz)
        }
        Atan2 | Atan2Pi => {
            // atan2(x, z) = atan(x / z): d/dx = z/(x²+z²), d/dz = -x/(x²+z²)
            let x2 = b.mul(x, x);
            let z2 = b.mul(z, z);
            let s = b.add(x2, z2);
            let s = if op == Atan2Pi { b.mul(s, c(t, PI)) } else { s };
            let dx = b.div(z, s);
            let q = b.div(x, s);
            let dz = b.neg(q);
            (Some(dx.into()), Some(dz.into()))
        }
        Hypot => {
            let dx = b.div(x, y);
            let dz = b.div(z, y);
            (Some(dx.into()), Some(dz.into()))
        }
        CopySign => {
            // |x|·sign(z): the sign of x times the sign of the result.
            let sx = b.unop(UnOp::Signum, x);
            let sy = b.unop(UnOp::Signum, y);
            (Some(b.mul(sx, sy).into()), None)
        }
        NextAfter => (Some(one), None),
        // x·2^z with an integer z
        Ldexp => (Some(b.binop(Ldexp, one, z).into()), None),
        _ => (None, None),
    }
}

/// Partial derivatives of a three-operand operator.
pub fn ternop(
    b: &mut Builder,
    op: TernOp,
    t: PrimType,
    [x, y, z]: [Operand; 3],
) -> [Option<Operand>; 3] {
    match op {
        // x·y + z
        TernOp::Fma | TernOp::Mad | TernOp::MadHi => [Some(y), Some(x), Some(c(t, 1.0))],
        TernOp::Lerp => {
            // lerp(v0, v1, t) = v0 + (v1 - v0)·t
            let one_m = b.sub(c(t, 1.0), z);
            let diff = b.sub(y, x);
            [Some(one_m.into()), Some(z), Some(diff.into())]
        }
    }
}
