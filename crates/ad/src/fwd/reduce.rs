//! `reduce` and `scan` with the lifted dual-number operator
//! `(a, ȧ) ⊙' (b, ḃ) = (a ⊙ b, ∂⊙/∂a·ȧ + ∂⊙/∂b·ḃ)` and neutral element
//! `(e, 0)`: the tangent of every component that may be non-zero is
//! carried as an extra component of the operator.

use super::build::{is_diff, zeros_like};
use super::{activity, Fwd};
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let (w, op, arrs) = match &s.exp {
        Exp::Soac(Soac::Reduce(Reduce { w, op, arrs, .. }))
        | Exp::Soac(Soac::Scan(Scan { w, op, arrs })) => (*w, op, arrs),
        _ => unreachable!(),
    };
    let tys = b.row_types(arrs);
    let init = arrs.iter().map(|&a| f.tan(a.into()).is_some()).collect();
    let fl = active_components(f, op, &tys, init);
    let tan_arrs = tangent_vars(f, b, arrs, &fl);
    let lifted = lift_op(f, b, op, &fl)?;
    let all_arrs: Vec<VName> = arrs.iter().copied().chain(tan_arrs).collect();
    let exp = match &s.exp {
        Exp::Soac(Soac::Reduce(Reduce { comm, .. })) => Exp::Soac(Soac::Reduce(Reduce {
            w,
            comm: *comm,
            op: lifted,
            arrs: all_arrs,
        })),
        _ => Exp::Soac(Soac::Scan(Scan {
            w,
            op: lifted,
            arrs: all_arrs,
        })),
    };
    let names = f.emit_extended(b, &s.pat, exp, "red_tan");
    set_extra_tangents(f, &s.pat, &names[s.pat.len()..], &fl);
    Ok(())
}

/// Which components of an operator need tangents: those of a
/// differentiable type whose inputs have tangents (`init`), closed under
/// dependence through the operator (whose parameters are `k` left then `k`
/// right components).
pub fn active_components(f: &Fwd, op: &AccOp, tys: &[Type], init: Vec<bool>) -> Vec<bool> {
    let k = tys.len();
    let mut act: Vec<bool> = init
        .iter()
        .zip(tys)
        .map(|(&a, t)| a && is_diff(t))
        .collect();
    loop {
        let mut set = f.active_vars();
        for i in (0..k).filter(|&i| act[i]) {
            set.insert(op.lam.params[i].name);
            set.insert(op.lam.params[k + i].name);
        }
        activity(&op.lam.body, &mut set);
        let mut changed = false;
        for (i, r) in op.lam.body.result.iter().enumerate() {
            if !act[i] && is_diff(&tys[i]) && r.var().is_some_and(|v| set.contains(&v)) {
                act[i] = true;
                changed = true;
            }
        }
        if !changed {
            return act;
        }
    }
}

/// The tangents of `vals[i]` for every `i` with `fl[i]`, zeros built where
/// they are statically zero.
pub fn tangent_vars(f: &Fwd, b: &mut Builder, vals: &[VName], fl: &[bool]) -> Vec<VName> {
    vals.iter()
        .zip(fl)
        .filter(|(_, &x)| x)
        .map(|(&v, _)| match f.tan_or_zero(b, v.into()) {
            Operand::Var(t) => t,
            Operand::Const(_) => unreachable!("array tangents are variables"),
        })
        .collect()
}

/// Records `extra[k]` as the tangent of the `k`-th component of `pat`
/// whose `fl` is set.
pub fn set_extra_tangents(f: &mut Fwd, pat: &[Param], extra: &[VName], fl: &[bool]) {
    let flt = pat.iter().zip(fl).filter(|(_, &x)| x).map(|(p, _)| p);
    for (p, &t) in flt.zip(extra) {
        f.set(p.name, &p.ty, Some(t.into()));
    }
}

/// The dual-number lifting of the operator `op` on `k` components, of
/// which those with `fl` set get tangents: the lifted operator takes
/// `(xs, ẋs, ys, ẏs)` and returns `(zs, żs)`.
pub fn lift_op(f: &mut Fwd, b: &mut Builder, op: &AccOp, fl: &[bool]) -> Result<AccOp> {
    let k = fl.len();
    let mut params = vec![];
    for side in [&op.lam.params[..k], &op.lam.params[k..]] {
        params.extend(side.iter().cloned());
        for (p, _) in side.iter().zip(fl).filter(|(_, &x)| x) {
            let tp = b.param("op_tan", p.ty.clone());
            f.set(p.name, &p.ty, Some(tp.name.into()));
            params.push(tp);
        }
    }
    let br = f.branch(b, &op.lam.body)?;
    let keep: Vec<usize> = (0..k).filter(|&i| fl[i]).collect();
    let body = f.finish(b, br, &keep)?;
    let mut ret = op.lam.ret.clone();
    ret.extend(keep.iter().map(|&i| op.lam.ret[i].clone()));
    let mut neutral = op.neutral.clone();
    for &i in &keep {
        let z = zeros_like(b, op.neutral[i]);
        neutral.push(z);
    }
    Ok(AccOp {
        lam: Lambda { params, ret, body },
        neutral,
    })
}
