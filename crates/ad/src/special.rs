//! Special functions needed by derivative rules, emitted as IR.

use crate::linear::{const_of, select};
use parad_base::PrimType;
use parad_core::*;
use std::f64::consts::PI;

/// The digamma function ψ = Γ'/Γ (the derivative of `lgamma`) at `x`:
/// reflection `ψ(x) = ψ(1-x) - π/tan(πx)` below ½, the recurrence
/// `ψ(v) = ψ(v+1) - 1/v` up to `v ≥ 10`, then the asymptotic series
/// `ln v - 1/(2v) - Σ B₂ₖ/(2k·v²ᵏ)` to `k = 5` (error below 1e-13 there).
pub fn digamma(b: &mut Builder, t: PrimType, x: Operand) -> Operand {
    let half = const_of(t, 0.5);
    let one = const_of(t, 1.0);
    let ten = const_of(t, 10.0);
    let zero = const_of(t, 0.0);
    let neg = b.cmp(CmpOp::Lt, x, half);
    let reflected = b.sub(one, x);
    let xr = select(b, neg, reflected, x);
    let c0 = b.cmp(CmpOp::Lt, xr, ten);
    let lp = b.loop_while(&[c0.into(), xr, zero], |b, p| {
        let (v, acc) = (p[1], p[2]);
        let inv = b.div(one, v);
        let acc = b.sub(acc, inv);
        let v = b.add(v, one);
        let c = b.cmp(CmpOp::Lt, v, ten);
        vec![c.into(), v.into(), acc.into()]
    });
    let (v, acc) = (lp[1], lp[2]);
    let inv = b.div(one, v);
    let w = b.mul(inv, inv);
    let mut poly = const_of(t, -1.0 / 132.0);
    for c in [1.0 / 240.0, -1.0 / 252.0, 1.0 / 120.0, -1.0 / 12.0] {
        let m = b.mul(poly, w);
        let c = const_of(t, c);
        poly = b.add(m, c).into();
    }
    let tail = b.mul(poly, w);
    let l = b.unop(UnOp::Log, v);
    let h = b.mul(half, inv);
    let s = b.sub(l, h);
    let s = b.add(s, tail);
    let psi = b.add(s, acc);
    let pi = const_of(t, PI);
    let px = b.mul(pi, x);
    let tn = b.unop(UnOp::Tan, px);
    let cot = b.div(pi, tn);
    let refl = b.sub(psi, cot);
    select(b, neg, refl, psi)
}
