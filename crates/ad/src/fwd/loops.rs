//! `for` and `while` loops: every loop parameter that may carry a non-zero tangent gets a tangent parameter. Which ones may is a
//! fixpoint: a parameter is active when its initial value has a tangent or
//! its next value depends on an active variable.

use super::{activity, Fwd};
use crate::Result;
use parad_core::*;
use rustc_hash::FxHashSet;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Loop(Loop { params, form, body }) = &s.exp else {
        unreachable!()
    };
    let active = active_params(f, params, body);
    let mut new_params = vec![];
    let mut tan_params = vec![];
    let mut bundled = vec![];
    for (i, (p, init)) in params.iter().enumerate() {
        let is_bundled = init.var().is_some_and(|v| f.is_bundled(v));
        let ty = if is_bundled {
            b.type_of(*init)
        } else {
            p.ty.clone()
        };
        b.ctx.types.insert(p.name, ty.clone());
        new_params.push((Param::new(p.name, ty), *init));
        if is_bundled {
            f.bundle(p.name);
            bundled.push(i);
        }
        if active.contains(&i) {
            let t0 = f.tan_or_zero(b, *init);
            let tp = b.param("loop_tan", p.ty.clone());
            f.set(p.name, &p.ty, Some(tp.name.into()));
            tan_params.push((tp, t0));
        } else {
            f.set(p.name, &p.ty, None);
        }
    }
    new_params.extend(tan_params);
    let br = f.branch(b, body)?;
    let body = f.finish(b, br, &active)?;
    let mut is_bundled = vec![false; s.pat.len()];
    for i in bundled {
        is_bundled[i] = true;
    }
    f.emit_with_tangents(
        b,
        &s.pat,
        Exp::Loop(Loop {
            params: new_params,
            form: form.clone(),
            body,
        }),
        "loop_tan",
        &is_bundled,
        &active,
    );
    Ok(())
}

/// Indices of the parameters that need tangents.
fn active_params(f: &Fwd, params: &[(Param, Operand)], body: &Body) -> Vec<usize> {
    let diff: Vec<bool> = params
        .iter()
        .map(|(p, _)| super::build::is_diff(&p.ty))
        .collect();
    let mut act: Vec<bool> = params
        .iter()
        .enumerate()
        .map(|(i, (_, init))| diff[i] && f.tan(*init).is_some())
        .collect();
    loop {
        let mut set: FxHashSet<VName> = f.active_vars();
        set.extend(
            params
                .iter()
                .zip(&act)
                .filter(|(_, &a)| a)
                .map(|((p, _), _)| p.name),
        );
        activity(body, &mut set);
        let mut changed = false;
        for (i, r) in body.result.iter().enumerate() {
            if diff[i] && !act[i] && r.var().is_some_and(|v| set.contains(&v)) {
                act[i] = true;
                changed = true;
            }
        }
        if !changed {
            return (0..params.len()).filter(|&i| act[i]).collect();
        }
    }
}
