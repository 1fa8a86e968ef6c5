//! Accumulators (`withacc`/`upd`), which `vjp` emits, so that `jvp` of
//! `vjp` (Hessian-vector products) works. An accumulator over arrays with
//! primitive elements is *bundled*: its arrays are followed by their
//! tangents, its operator is lifted to dual numbers, and every `upd`
//! records the values' tangents next to the values. Accumulators from
//! outside the `jvp` stay as they are (their updates are primal effects).

use super::build::is_diff;
use super::reduce::{lift_op, tangent_vars};
use super::Fwd;
use crate::Result;
use parad_core::typing;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    match &s.exp {
        Exp::Basic(BasicOp::Upd { acc, inds, vals }) => {
            if !f.is_bundled(*acc) {
                b.add_stm(s.clone());
                return Ok(());
            }
            let fl: Vec<bool> = vals.iter().map(|&v| is_diff(&b.type_of(v))).collect();
            let mut all = vals.clone();
            for (&v, _) in vals.iter().zip(&fl).filter(|(_, &x)| x) {
                all.push(f.tan_or_zero(b, v));
            }
            let names = f.emit_extended(
                b,
                &s.pat,
                Exp::Basic(BasicOp::Upd {
                    acc: *acc,
                    inds: inds.clone(),
                    vals: all,
                }),
                "acc",
            );
            f.bundle(names[0]);
            Ok(())
        }
        Exp::Soac(Soac::WithAcc(WithAcc { inputs, lam })) => withacc(f, b, s, inputs, lam),
        _ => unreachable!(),
    }
}

fn withacc(f: &mut Fwd, b: &mut Builder, s: &Stm, inputs: &[AccInput], lam: &Lambda) -> Result<()> {
    let n = inputs.len();
    let mut new_inputs = vec![];
    // For each input: its arrays' tangent mask and the tangents' result slots.
    let mut masks = vec![];
    let mut params = vec![];
    for (inp, p) in inputs.iter().zip(&lam.params) {
        let k = inp.ispace.len();
        let fl: Vec<bool> = inp.arrs.iter().map(|&a| is_diff(&b.type_of(a))).collect();
        if !fl.iter().any(|&x| x) {
            new_inputs.push(inp.clone());
            params.push(p.clone());
            masks.push(fl.iter().map(|_| false).collect::<Vec<_>>());
            continue;
        }
        let tans = tangent_vars(f, b, &inp.arrs, &fl);
        let arrs: Vec<VName> = inp.arrs.iter().copied().chain(tans).collect();
        let op = match &inp.op {
            Some(op) => Some(lift_op(f, b, op, &fl)?),
            None => None,
        };
        let elems = arrs
            .iter()
            .map(|&a| {
                b.type_of(a)
                    .drop_dims(k)
                    .expect("fwd: accumulator array rank")
            })
            .collect();
        let ty = Type::Acc(AccType {
            ispace: inp.ispace.iter().map(Dim::from_operand).collect(),
            elems,
        });
        b.ctx.types.insert(p.name, ty.clone());
        f.bundle(p.name);
        params.push(Param::new(p.name, ty));
        new_inputs.push(AccInput {
            ispace: inp.ispace.clone(),
            arrs,
            op,
        });
        masks.push(fl);
    }
    let br = f.branch(b, &lam.body)?;
    let keep: Vec<usize> = (n..br.res.len())
        .filter(|&i| br.tans[i].is_some())
        .collect();
    let accs_res = br.res[..n].to_vec();
    let body = f.finish(b, br, &keep)?;
    let mut ret: Vec<Type> = accs_res.iter().map(|&r| b.type_of(r)).collect();
    ret.extend(lam.ret[n..].iter().cloned());
    ret.extend(keep.iter().map(|&i| lam.ret[i].clone()));
    let exp = Exp::Soac(Soac::WithAcc(WithAcc {
        inputs: new_inputs,
        lam: Lambda { params, ret, body },
    }));
    let tys = typing::result_types(&*b.ctx, &exp)
        .unwrap_or_else(|e| panic!("fwd: cannot type withacc: {e}"));
    // Results: per input its arrays then their tangents; then the extra
    // values, then the extra values' tangents.
    let mut pat = vec![];
    let mut tans: Vec<(usize, VName)> = vec![];
    let mut orig = s.pat.iter().enumerate();
    let mut ty_it = tys.into_iter();
    for fl in &masks {
        let mine: Vec<(usize, &Param)> = orig.by_ref().take(fl.len()).collect();
        for &(_, p) in &mine {
            ty_it.next();
            pat.push(p.clone());
        }
        for (&(i, p), _) in mine.iter().zip(fl).filter(|(_, &x)| x) {
            let tp = b.param("withacc_tan", ty_it.next().unwrap_or_else(|| p.ty.clone()));
            tans.push((i, tp.name));
            pat.push(tp);
        }
    }
    let extras: Vec<(usize, &Param)> = orig.collect();
    for &(_, p) in &extras {
        ty_it.next();
        pat.push(p.clone());
    }
    for &i in &keep {
        let (j, p) = extras[i - n];
        let tp = b.param("withacc_tan", ty_it.next().unwrap_or_else(|| p.ty.clone()));
        tans.push((j, tp.name));
        pat.push(tp);
    }
    b.let_pat(pat, exp);
    for (i, t) in tans {
        let p = &s.pat[i];
        f.set(p.name, &p.ty, Some(t.into()));
    }
    Ok(())
}
