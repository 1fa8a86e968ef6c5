//! Scalar operators: `x̄ += ∂f/∂x · ȳ` for each float operand. Integer
//! and boolean values carry no adjoint; comparisons and rounding
//! functions have zero derivatives.

use super::adjenv::Rev;
use super::build::{const_of, select};
use parad_base::PrimType;
use parad_core::*;
use std::f64::consts::{LN_10, LN_2, PI};

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) {
    let y = s.pat[0].name;
    let yv: Operand = r.p(y).into();
    let ybar = r.adj_val(b, y);
    match s.exp {
        Exp::UnOp(op, t @ PrimType::Float(_), x) if r.wants_op(b, x) => {
            if let Some(d) = unop_partial(b, op, t, r.po(x), yv) {
                let c = b.mul(d, ybar);
                r.add_op(b, x, c.into());
            }
        }
        Exp::BinOp(op, t @ PrimType::Float(_), x, z) => {
            let (wx, wz) = (r.wants_op(b, x), r.wants_op(b, z));
            if !(wx || wz) {
                return;
            }
            let (dx, dz) = binop_partials(b, op, t, r.po(x), r.po(z), yv, (wx, wz));
            for (o, d, w) in [(x, dx, wx), (z, dz, wz)] {
                if let (true, Some(d)) = (w, d) {
                    let c = b.mul(d, ybar);
                    r.add_op(b, o, c.into());
                }
            }
        }
        Exp::TernOp(op, t @ PrimType::Float(_), x, y1, z) => {
            let (xp, yp, zp) = (r.po(x), r.po(y1), r.po(z));
            let ds: [Option<Operand>; 3] = match op {
                TernOp::Fma | TernOp::Mad => [Some(yp), Some(xp), Some(const_of(t, 1.0))],
                TernOp::Lerp => {
                    // lerp(v0, v1, t) = v0 + (v1 - v0)·t
                    let one_m = b.sub(const_of(t, 1.0), zp);
                    let diff = b.sub(yp, xp);
                    [Some(one_m.into()), Some(zp), Some(diff.into())]
                }
                TernOp::MadHi => [None, None, None],
            };
            for (o, d) in [x, y1, z].into_iter().zip(ds) {
                if let (true, Some(d)) = (r.wants_op(b, o), d) {
                    let c = b.mul(d, ybar);
                    r.add_op(b, o, c.into());
                }
            }
        }
        Exp::Conv(ConvOp::Cast, PrimType::Float(_), PrimType::Float(_), x) if r.wants_op(b, x) => {
            let from = b.type_of(r.po(x)).as_prim().expect("scalar");
            let c = b.cast(from, ybar);
            r.add_op(b, x, c.into());
        }
        _ => {}
    }
}

fn c(t: PrimType, x: f64) -> Operand {
    const_of(t, x)
}

/// `dy/dx` of `y = op(x)` at float type `t` (`None`: no dependence).
pub fn unop_partial(
    b: &mut Builder,
    op: UnOp,
    t: PrimType,
    x: Operand,
    y: Operand,
) -> Option<Operand> {
    use UnOp::*;
    let one = c(t, 1.0);
    let d: Operand = match op {
        Neg => c(t, -1.0),
        Abs => b.unop(Signum, x).into(),
        Sqrt => {
            let d = b.mul(c(t, 2.0), y);
            b.div(one, d).into()
        }
        Rsqrt => {
            // y = x^(-1/2): dy/dx = -y / (2x)
            let q = b.div(y, x);
            b.mul(c(t, -0.5), q).into()
        }
        Cbrt => {
            let y2 = b.mul(y, y);
            let d = b.mul(c(t, 3.0), y2);
            b.div(one, d).into()
        }
        Exp => y,
        Expm1 => b.add(y, one).into(),
        Log => b.div(one, x).into(),
        Log2 => {
            let d = b.mul(x, c(t, LN_2));
            b.div(one, d).into()
        }
        Log10 => {
            let d = b.mul(x, c(t, LN_10));
            b.div(one, d).into()
        }
        Log1p => {
            let d = b.add(one, x);
            b.div(one, d).into()
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
            b.div(one, r).into()
        }
        Atanh => {
            let x2 = b.mul(x, x);
            let s = b.sub(one, x2);
            b.div(one, s).into()
        }
        Gamma => {
            let d = digamma(b, t, x);
            b.mul(y, d).into()
        }
        Lgamma => digamma(b, t, x),
        Erf | Erfc => {
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
/// only those flagged in `want` are computed.
pub fn binop_partials(
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
        Add => (Some(one), Some(one)),
        Sub => (Some(one), Some(c(t, -1.0))),
        Mul => (Some(z), Some(x)),
        Div => {
            let dx = b.div(one, z);
            let dz = if want.1 {
                let q = b.div(y, z);
                Some(b.neg(q).into())
            } else {
                None
            };
            (Some(dx.into()), dz)
        }
        Mod => {
            // fmod(x, z) = x - trunc(x / z)·z
            let dz = if want.1 {
                let q = b.div(x, z);
                let tq = b.unop(UnOp::Trunc, q);
                Some(b.neg(tq).into())
            } else {
                None
            };
            (Some(one), dz)
        }
        Pow => {
            let dx = if want.0 {
                // z·x^(z-1)
                let zm1 = b.sub(z, one);
                let p = b.binop(Pow, x, zm1);
                Some(b.mul(z, p).into())
            } else {
                None
            };
            let dz = if want.1 {
                // x^z·log x, taken as 0 where x = 0 (the limit from the right)
                let l = b.unop(UnOp::Log, x);
                let m = b.mul(y, l);
                let is0 = b.cmp(CmpOp::Eq, x, zero);
                Some(select(b, is0, zero, m))
            } else {
                None
            };
            (dx, dz)
        }
        Min | Max => {
            // Ties go to the left operand.
            let cmp = if op == Min { CmpOp::Le } else { CmpOp::Ge };
            let left = b.cmp(cmp, x, z);
            let dx = select(b, left, one, zero);
            let dz = select(b, left, zero, one);
            (Some(dx), Some(dz))
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
        Ldexp => {
            // x·2^z with an integer z
            let p = b.binop(Ldexp, one, z);
            (Some(p.into()), None)
        }
        Quot | Rem | And | Or | Xor | Shl | AShr | LShr | MulHi => (None, None),
    }
}

/// The digamma function ψ = (log Γ)′: reflection below 1/2, the
/// recurrence ψ(x) = ψ(x+1) - 1/x up to x ≥ 6, then the asymptotic series.
pub fn digamma(b: &mut Builder, t: PrimType, x: Operand) -> Operand {
    let one = c(t, 1.0);
    let small = b.cmp(CmpOp::Lt, x, c(t, 0.5));
    let refl = b.sub(one, x);
    let xr = select(b, small, refl, x);
    // Shift by 6: ψ(x) = ψ(x+6) - Σ_{k<6} 1/(x+k).
    let mut acc: Operand = c(t, 0.0);
    for k in 0..6 {
        let xk = b.add(xr, c(t, k as f64));
        let inv = b.div(one, xk);
        acc = b.add(acc, inv).into();
    }
    let z = b.add(xr, c(t, 6.0));
    let lz = b.unop(UnOp::Log, z);
    let iz = b.div(one, z);
    let iz2 = b.mul(iz, iz);
    // ln z - 1/(2z) - Σ B_2k / (2k z^2k)
    let coeffs = [
        1.0 / 12.0,
        -1.0 / 120.0,
        1.0 / 252.0,
        -1.0 / 240.0,
        1.0 / 132.0,
        -691.0 / 32760.0,
    ];
    let mut series: Operand = c(t, 0.0);
    for &k in coeffs.iter().rev() {
        let s = b.add(series, c(t, k));
        series = b.mul(s, iz2).into();
    }
    let half = b.mul(iz, c(t, 0.5));
    let a = b.sub(lz, half);
    let a = b.sub(a, series);
    let psi = b.sub(a, acc);
    // ψ(x) = ψ(1-x) - π / tan(πx) for x < 1/2
    let tp = b.unop(UnOp::TanPi, x);
    let corr = b.div(c(t, PI), tp);
    let reflected = b.sub(psi, corr);
    select(b, small, reflected, psi)
}
