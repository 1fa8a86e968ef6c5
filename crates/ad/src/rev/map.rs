//! `map`: the return sweep is a map whose lambda re-executes the
//! original lambda's forward statements and then its return sweep,
//! seeded with one row of each result's adjoint. It returns the
//! adjoints of the rows of the input arrays, one contribution per
//! iteration for each free scalar (summed afterwards by a reduce), and
//! threads one accumulator per free array (created by `withacc` unless
//! the array's adjoint is already an accumulator of an enclosing map).

use super::adjenv::{Adj, Rev};
use super::build::{plus_op, sum_rows};
use crate::{AdError, Result};
use parad_core::consts;
use parad_core::free::free_in_lambda;
use parad_core::rename::Renamer;
use parad_core::*;

/// A `withacc` input that accumulates into the whole of array `arr`.
pub fn acc_input(b: &mut Builder, arr: VName) -> AccInput {
    let t = b.type_of(arr);
    let ispace = (0..t.rank()).map(|k| b.dim(arr, k)).collect();
    let op = plus_op(b, consts::zero(t.elem().expect("array")).into());
    AccInput {
        ispace,
        arrs: vec![arr],
        op: Some(op),
    }
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Map(Map { w, lam, arrs })) = &s.exp else {
        unreachable!()
    };
    if arrs.iter().any(|&a| b.type_of(r.p(a)).is_acc()) {
        return Err(AdError::new(
            s.span,
            "reverse AD of a map over accumulators is not supported",
        ));
    }
    let w = r.po(*w);
    let res_adj: Vec<Option<VName>> = s
        .pat
        .iter()
        .map(|p| {
            r.wants(b, p.name)
                .then(|| r.adj_val(b, p.name).var().expect("array adjoint"))
        })
        .collect();
    let mut free: Vec<VName> = free_in_lambda(lam).into_iter().collect();
    free.sort();
    let fscal: Vec<VName> = free
        .iter()
        .copied()
        .filter(|&v| r.wants(b, v) && b.type_of(r.p(v)).rank() == 0)
        .collect();
    let farr: Vec<VName> = free
        .iter()
        .copied()
        .filter(|&v| r.wants(b, v) && b.type_of(r.p(v)).rank() > 0)
        .collect();
    let farr_adj: Vec<Adj> = farr.iter().map(|&v| r.adj_any(b, v)).collect();
    let wanted_in: Vec<usize> = (0..arrs.len()).filter(|&j| r.wants(b, arrs[j])).collect();
    let saved_subst = r.save_subst(&free);
    let saved_scal: Vec<Option<Adj>> = fscal.iter().map(|v| r.adj.get(v).copied()).collect();

    let new_inputs: Vec<usize> = (0..farr.len())
        .filter(|&k| matches!(farr_adj[k], Adj::Val(_)))
        .collect();
    let ctx = MapCtx {
        w,
        lam,
        arrs,
        res_adj: &res_adj,
        fscal: &fscal,
        farr: &farr,
        wanted_in: &wanted_in,
    };
    // Results: input contributions, scalar contributions, then accumulators.
    let (contribs, accs_out): (Vec<VName>, Vec<VName>) = if new_inputs.is_empty() {
        let accs: Vec<VName> = farr_adj
            .iter()
            .map(|a| match a {
                Adj::Acc(v) => *v,
                Adj::Val(_) => unreachable!(),
            })
            .collect();
        let exp = ctx.make_map(r, b, &accs)?;
        let out = b.emit_as("adj", exp);
        let n = out.len() - accs.len();
        (out[..n].to_vec(), out[n..].to_vec())
    } else {
        let inputs: Vec<AccInput> = new_inputs
            .iter()
            .map(|&k| {
                let Adj::Val(o) = farr_adj[k] else {
                    unreachable!()
                };
                acc_input(b, o.var().expect("array adjoint"))
            })
            .collect();
        let out = b.try_withacc(inputs, |b, params| {
            let mut accs = vec![];
            let mut fresh = params.iter();
            for a in &farr_adj {
                accs.push(match a {
                    Adj::Acc(v) => *v,
                    Adj::Val(_) => *fresh.next().expect("accumulator parameter"),
                });
            }
            let exp = ctx.make_map(r, b, &accs)?;
            let out = b.emit_as("adj", exp);
            let n = out.len() - accs.len();
            let acc_res = &out[n..];
            // withacc returns its own accumulators first, then the rest.
            let mut res: Vec<Operand> = new_inputs.iter().map(|&k| acc_res[k].into()).collect();
            res.extend(out[..n].iter().map(|&v| Operand::from(v)));
            res.extend(
                (0..farr.len())
                    .filter(|k| !new_inputs.contains(k))
                    .map(|k| Operand::from(acc_res[k])),
            );
            Ok(res)
        })?;
        let nn = new_inputs.len();
        let n_contrib = wanted_in.len() + fscal.len();
        let contribs = out[nn..nn + n_contrib].to_vec();
        let mut outer_accs = out[nn + n_contrib..].iter();
        let mut new_arrays = out[..nn].iter();
        // Map back to farr order; arrays from withacc are plain adjoints now.
        let accs_out = (0..farr.len())
            .map(|k| {
                if new_inputs.contains(&k) {
                    *new_arrays.next().expect("withacc result")
                } else {
                    *outer_accs.next().expect("accumulator result")
                }
            })
            .collect();
        (contribs, accs_out)
    };
    r.restore_subst(&saved_subst);
    for (v, a) in fscal.iter().zip(saved_scal) {
        match a {
            Some(a) => r.adj.insert(*v, a),
            None => r.adj.remove(v),
        };
    }
    for (k, &v) in farr.iter().enumerate() {
        let a = if new_inputs.contains(&k) {
            Adj::Val(accs_out[k].into())
        } else {
            Adj::Acc(accs_out[k])
        };
        r.adj.insert(v, a);
    }
    for (&j, &c) in wanted_in.iter().zip(&contribs) {
        r.add(b, arrs[j], c.into());
    }
    for (&v, &c) in fscal.iter().zip(&contribs[wanted_in.len()..]) {
        let sum = sum_rows(b, c);
        r.add(b, v, sum);
    }
    Ok(())
}

struct MapCtx<'a> {
    w: Operand,
    lam: &'a Lambda,
    arrs: &'a [VName],
    res_adj: &'a [Option<VName>],
    fscal: &'a [VName],
    farr: &'a [VName],
    wanted_in: &'a [usize],
}

impl MapCtx<'_> {
    /// The return-sweep map, with accumulators `accs` for the free arrays.
    fn make_map(&self, r: &mut Rev, b: &mut Builder, accs: &[VName]) -> Result<Exp> {
        let mut params: Vec<Param> = self
            .lam
            .params
            .iter()
            .map(|p| {
                Renamer {
                    ctx: b.ctx,
                    subst: &mut r.subst,
                }
                .bind(p)
            })
            .collect();
        for p in &self.lam.params {
            r.forget(p.name);
        }
        let mut seeds = vec![];
        let mut inputs: Vec<VName> = self.arrs.iter().map(|&a| r.p(a)).collect();
        for a in self.res_adj {
            match a {
                Some(v) => {
                    let row = b.type_of(*v).row().expect("row");
                    let p = b.param("adj", row);
                    seeds.push(p.name.into());
                    params.push(p);
                    inputs.push(*v);
                }
                None => seeds.push(Operand::i64(0)),
            }
        }
        let mut acc_params = vec![];
        for &a in accs {
            let p = b.param("acc", b.type_of(a));
            acc_params.push(p.name);
            params.push(p);
            inputs.push(a);
        }
        for v in self.fscal {
            r.forget(*v);
        }
        for (&v, &p) in self.farr.iter().zip(&acc_params) {
            r.adj.insert(v, Adj::Acc(p));
        }
        let lam = self.lam;
        let (wanted_in, fscal, farr) = (self.wanted_in, self.fscal, self.farr);
        let lam = b.try_lambda_of(params, |b| -> Result<Vec<Operand>> {
            r.body(b, &lam.body, &seeds)?;
            let mut res = vec![];
            for &j in wanted_in {
                res.push(r.final_adj(b, lam.params[j].name));
            }
            for &v in fscal {
                res.push(r.adj_operand(b, v));
            }
            for &v in farr {
                res.push(r.adj_operand(b, v));
            }
            Ok(res)
        })?;
        Ok(Map {
            w: self.w,
            lam,
            arrs: inputs,
        }
        .into())
    }
}
