//! Tangents of scalar operators: `v̇ = Σᵢ ∂f/∂uᵢ · u̇ᵢ` (seed 002 §3.2.1).
//! Only floating-point results have tangents; comparisons, integer and
//! boolean operators, and rounding functions (zero derivative almost
//! everywhere) have none.

use super::build::{add, fconst, float_of, mul, select, sub};
use super::special::digamma;
use super::Fwd;
use crate::Result;
use parad_base::{FloatType, PrimType};
use parad_core::*;
use std::f64::consts::{LN_10, LN_2, PI};

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    b.add_stm(s.clone());
    let y = s.pat[0].name;
    let t = match &s.exp {
        Exp::UnOp(op, t, x) => match float_of(*t) {
            Some(ft) => unop(b, *op, ft, *x, f.tan(*x), y),
            None => None,
        },
        Exp::BinOp(op, t, x, z) => match float_of(*t) {
            Some(ft) => binop(b, *op, ft, (*x, f.tan(*x)), (*z, f.tan(*z)), y),
            None => None,
        },
        Exp::TernOp(op, t, x, y2, z) => match float_of(*t) {
            Some(_) => ternop(b, *op, [*x, *y2, *z], [f.tan(*x), f.tan(*y2), f.tan(*z)]),
            None => None,
        },
        Exp::Conv(ConvOp::Cast, from @ PrimType::Float(_), to @ PrimType::Float(_), x) => f
            .tan(*x)
            .map(|dx| b.emit1(Exp::Conv(ConvOp::Cast, *from, *to, dx)).into()),
        _ => None,
    };
    f.set(y, &s.pat[0].ty, t);
    Ok(())
}

/// `dx / d` and `dx * c`, propagating a static zero.
fn div(b: &mut Builder, dx: Option<Operand>, d: Operand) -> Option<Operand> {
    Some(b.div(dx?, d).into())
}

/// `c * x` for a constant `c`.
fn scale(b: &mut Builder, t: FloatType, c: f64, x: Operand) -> Operand {
    let c = fconst(b, t, c);
    b.mul(c, x).into()
}

/// `1 - x²` (or `1 + x²`, `x² - 1` with the signs given).
fn one_plus_sq(b: &mut Builder, t: FloatType, one: f64, sq: f64, x: Operand) -> Operand {
    let x2 = b.mul(x, x);
    let x2 = scale(b, t, sq, x2.into());
    let one = fconst(b, t, one);
    b.add(one, x2).into()
}

/// Tangent of `y = op x` at float type `t`.
pub fn unop(
    b: &mut Builder,
    op: UnOp,
    t: FloatType,
    x: Operand,
    dx: Option<Operand>,
    y: VName,
) -> Option<Operand> {
    use UnOp::*;
    let dx = dx?;
    let d: Operand = match op {
        Neg => return Some(b.neg(dx).into()),
        Abs => b.unop(Signum, x).into(),
        Sqrt => {
            let d = scale(b, t, 2.0, y.into());
            return div(b, Some(dx), d);
        }
        // y = x^(-1/2): dy = -y / (2x).
        Rsqrt => {
            let q = b.div(y, x);
            scale(b, t, -0.5, q.into())
        }
        Cbrt => {
            let y2 = b.mul(y, y);
            let d = scale(b, t, 3.0, y2.into());
            return div(b, Some(dx), d);
        }
        Exp => y.into(),
        Expm1 => {
            let one = fconst(b, t, 1.0);
            b.add(y, one).into()
        }
        Log => return div(b, Some(dx), x),
        Log2 => {
            let d = scale(b, t, LN_2, x);
            return div(b, Some(dx), d);
        }
        Log10 => {
            let d = scale(b, t, LN_10, x);
            return div(b, Some(dx), d);
        }
        Log1p => {
            let one = fconst(b, t, 1.0);
            let d = b.add(one, x);
            return div(b, Some(dx), d.into());
        }
        Sin => b.unop(Cos, x).into(),
        Cos => {
            let s = b.unop(Sin, x);
            b.neg(s).into()
        }
        Tan => one_plus_sq(b, t, 1.0, 1.0, y.into()),
        SinPi => {
            let c = b.unop(CosPi, x);
            scale(b, t, PI, c.into())
        }
        CosPi => {
            let s = b.unop(SinPi, x);
            scale(b, t, -PI, s.into())
        }
        TanPi => {
            let d = one_plus_sq(b, t, 1.0, 1.0, y.into());
            scale(b, t, PI, d)
        }
        Asin | Acos | AsinPi | AcosPi => {
            let r = one_plus_sq(b, t, 1.0, -1.0, x);
            let r = b.unop(Sqrt, r);
            let c = match op {
                Asin => 1.0,
                Acos => -1.0,
                AsinPi => 1.0 / PI,
                _ => -1.0 / PI,
            };
            let r = scale(b, t, 1.0 / c, r.into());
            return div(b, Some(dx), r);
        }
        Atan | AtanPi => {
            let r = one_plus_sq(b, t, 1.0, 1.0, x);
            let r = if op == AtanPi { scale(b, t, PI, r) } else { r };
            return div(b, Some(dx), r);
        }
        Sinh => b.unop(Cosh, x).into(),
        Cosh => b.unop(Sinh, x).into(),
        Tanh => one_plus_sq(b, t, 1.0, -1.0, y.into()),
        Asinh | Acosh => {
            let one = if op == Asinh { 1.0 } else { -1.0 };
            let r = one_plus_sq(b, t, one, 1.0, x);
            let r = b.unop(Sqrt, r);
            return div(b, Some(dx), r.into());
        }
        Atanh => {
            let r = one_plus_sq(b, t, 1.0, -1.0, x);
            return div(b, Some(dx), r);
        }
        Lgamma => digamma(b, t, x),
        Gamma => {
            let p = digamma(b, t, x);
            b.mul(y, p).into()
        }
        Erf | Erfc => {
            // d erf(x)/dx = 2/√π · exp(-x²).
            let x2 = b.mul(x, x);
            let nx2 = b.neg(x2);
            let e = b.unop(Exp, nx2);
            let c = if op == Erf { 2.0 } else { -2.0 } / PI.sqrt();
            scale(b, t, c, e.into())
        }
        Signum | Ceil | Floor | Trunc | Round => return None,
        // Not float-valued.
        Not | Complement | IsInf | IsNan | Popc | Clz | Ctz => return None,
    };
    Some(b.mul(d, dx).into())
}

/// Tangent of `z = x op y` at float type `t`.
pub fn binop(
    b: &mut Builder,
    op: BinOp,
    t: FloatType,
    (x, dx): (Operand, Option<Operand>),
    (y, dy): (Operand, Option<Operand>),
    z: VName,
) -> Option<Operand> {
    use BinOp::*;
    dx.or(dy)?;
    match op {
        Add => add(b, dx, dy),
        Sub => sub(b, dx, dy),
        Mul => {
            let l = mul(b, y, dx);
            let r = mul(b, x, dy);
            add(b, l, r)
        }
        // d(x/y) = (dx - z·dy) / y.
        Div => {
            let zdy = mul(b, z.into(), dy);
            let n = sub(b, dx, zdy);
            div(b, n, y)
        }
        // fmod: z = x - trunc(x/y)·y.
        Mod => {
            let q = b.div(x, y);
            let q = b.unop(UnOp::Trunc, q);
            let qdy = mul(b, q.into(), dy);
            sub(b, dx, qdy)
        }
        Pow => {
            let zero = fconst(b, t, 0.0);
            // y·x^(y-1)·dx, zero when y = 0 (avoids 0·∞ at x = 0).
            let l = dx.map(|dx| {
                let one = fconst(b, t, 1.0);
                let ym1 = b.sub(y, one);
                let p = b.binop(Pow, x, ym1);
                let c = b.mul(y, p);
                let yz = b.cmp(CmpOp::Eq, y, zero);
                let c = select(b, yz.into(), zero, c.into());
                b.mul(c, dx).into()
            });
            // z·ln(x)·dy, zero when x = 0 (the limit along positive y).
            let r = dy.map(|dy| {
                let l = b.unop(UnOp::Log, x);
                let c = b.mul(z, l);
                let xz = b.cmp(CmpOp::Eq, x, zero);
                let c = select(b, xz.into(), zero, c.into());
                b.mul(c, dy).into()
            });
            add(b, l, r)
        }
        Min | Max => {
            let c = b.cmp(if op == Min { CmpOp::Le } else { CmpOp::Ge }, x, y);
            let zero = fconst(b, t, 0.0);
            let l = dx.unwrap_or(zero);
            let r = dy.unwrap_or(zero);
            Some(select(b, c.into(), l, r))
        }
        // atan2(x, y) = atan(x/y): d = (y·dx - x·dy) / (x² + y²).
        Atan2 | Atan2Pi => {
            let l = mul(b, y, dx);
            let r = mul(b, x, dy);
            let n = sub(b, l, r);
            let x2 = b.mul(x, x);
            let y2 = b.mul(y, y);
            let d = b.add(x2, y2);
            let d = if op == Atan2Pi {
                scale(b, t, PI, d.into())
            } else {
                d.into()
            };
            div(b, n, d)
        }
        // z = hypot(x, y): dz = (x·dx + y·dy) / z.
        Hypot => {
            let l = mul(b, x, dx);
            let r = mul(b, y, dy);
            let n = add(b, l, r);
            div(b, n, z.into())
        }
        // z = ±x with the sign of y: dz = sign(z)·sign(x)·dx.
        CopySign => {
            let one = fconst(b, t, 1.0);
            let sz = b.binop(CopySign, one, z);
            let sx = b.binop(CopySign, one, x);
            let s = b.mul(sz, sx);
            mul(b, s.into(), dx)
        }
        NextAfter => dx,
        // x·2ⁿ is linear in x.
        Ldexp => dx.map(|dx| b.binop(Ldexp, dx, y).into()),
        Quot | Rem | And | Or | Xor | Shl | AShr | LShr | MulHi => None,
    }
}

/// Tangent of a three-operand float operator.
pub fn ternop(
    b: &mut Builder,
    op: TernOp,
    [x, y, z]: [Operand; 3],
    [dx, dy, dz]: [Option<Operand>; 3],
) -> Option<Operand> {
    match op {
        // x·y + z.
        TernOp::Fma | TernOp::Mad => {
            let l = mul(b, y, dx);
            let r = mul(b, x, dy);
            let s = add(b, l, r);
            add(b, s, dz)
        }
        // x + (y - x)·z = x·(1 - z) + y·z.
        TernOp::Lerp => {
            let omz = dx.map(|_| {
                let t = float_of(b.type_of(z).as_prim().expect("scalar")).expect("float");
                let one = fconst(b, t, 1.0);
                b.sub(one, z).into()
            });
            let a = omz.and_then(|c| mul(b, c, dx));
            let c = mul(b, z, dy);
            let s = add(b, a, c);
            let e = dz.map(|_| b.sub(y, x).into());
            let d = e.and_then(|e| mul(b, e, dz));
            add(b, s, d)
        }
        TernOp::MadHi => None,
    }
}
