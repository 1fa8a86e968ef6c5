//! Special functions needed by derivative rules, emitted as IR.

use parad_base::PrimType;
use parad_core::consts;
use parad_core::pexp::{if_, lt, un};
use parad_core::*;
use std::f64::consts::PI;

/// The digamma function ψ = Γ'/Γ (the derivative of `lgamma`) at `x`:
/// reflection `ψ(x) = ψ(1-x) - π/tan(πx)` below ½, the recurrence
/// `ψ(v) = ψ(v+1) - 1/v` up to `v ≥ 10`, then the asymptotic series
/// `ln v - 1/(2v) - Σ B₂ₖ/(2k·v²ᵏ)` to `k = 5` (error below 1e-13 there).
pub fn digamma(b: &mut Builder, t: PrimType, x: Operand) -> Operand {
    let neg = b.expr(lt(x, 0.5));
    let xr = b.expr(if_(neg, 1.0 - x, x));
    let c0 = b.expr(lt(xr, 10.0));
    let lp = b.loop_while(&[c0, xr, consts::zero(t).into()], |b, p| {
        let (v, acc) = (p[1], p[2]);
        let acc = b.expr(acc - 1.0 / v);
        let v = b.expr(v + 1.0);
        vec![b.expr(lt(v, 10.0)), v, acc]
    });
    let (v, acc) = (lp[1], lp[2]);
    let inv = b.expr(1.0 / v);
    let w = b.expr(inv * inv);
    let poly = [1.0 / 240.0, -1.0 / 252.0, 1.0 / 120.0, -1.0 / 12.0]
        .into_iter()
        .fold(PExp::from(-1.0 / 132.0), |p, c| p * w + c);
    let psi = b.expr(un(UnOp::Log, v) - 0.5 * inv + poly * w + acc);
    b.expr(if_(neg, psi - PI / un(UnOp::Tan, PI * x), psi))
}
