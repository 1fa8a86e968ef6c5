//! Producer-consumer fusion: a producer `P` into a later SOAC `C` of the
//! same width that takes some of `P`'s mapped results as input arrays.
//! The fused lambda takes `P`'s inputs and `C`'s other inputs, runs
//! `P`'s lambda, then `C`'s with the rows it took from `P` replaced by
//! the values `P`'s lambda returned. Its operators are `P`'s scans,
//! `C`'s, `P`'s reductions, `C`'s; its mapped results `C`'s, then those
//! of `P`'s mapped results that are used elsewhere too. (A `P` with
//! scans or reductions keeps them: only its mapped results link.)

use super::deps::Facts;
use super::soac::{has_acc_inputs, parts, split3, to_screma};
use super::{order, Fuser};
use parad_base::Span;
use parad_core::consume::Consumption;
use parad_core::free::lambda_uses;
use parad_core::subst::{self, Subst};
use parad_core::*;

/// Fuses the first producer-consumer pair of `b` that can be fused;
/// returns the new statements.
pub fn fuse_one(b: &mut Body, f: &Facts, fz: &mut Fuser) -> Option<Vec<Stm>> {
    for j in 0..b.stms.len() {
        let Some((_, arrs)) = parts(&b.stms[j].exp) else {
            continue;
        };
        let mut producers: Vec<usize> = arrs
            .iter()
            .filter_map(|a| f.def.get(a).copied())
            .filter(|&i| i < j)
            .collect();
        producers.dedup();
        for i in producers {
            if let Some(stms) = try_pair(b, f, fz, i, j) {
                return Some(stms);
            }
        }
    }
    None
}

fn try_pair(b: &mut Body, f: &Facts, fz: &mut Fuser, i: usize, j: usize) -> Option<Vec<Stm>> {
    let (wp, _) = parts(&b.stms[i].exp)?;
    let (wc, _) = parts(&b.stms[j].exp)?;
    let same_attrs = b.stms[i].attrs == b.stms[j].attrs;
    if !same_attrs || !fz.widths.equal(&wp, &wc, &fz.eqs_at(b, j)) {
        return None;
    }
    // The producer consumes nothing (its inputs would be consumed by the
    // fused statement, which other rows may read).
    if !f.consumed[i].is_empty() {
        return None;
    }
    let (dep, _) = order::delayed(b, f, i, j)?;
    // The consumer depends on the producer only through its inputs.
    let dep_names: Vec<VName> = dep.iter().flat_map(|&k| f.bound[k].clone()).collect();
    if dep_names.iter().any(|v| f.uses[j].contains(v)) {
        return None;
    }
    let p = to_screma(&b.stms[i].exp, fz.names);
    let c = to_screma(&b.stms[j].exp, fz.names);
    let p_pat = &b.stms[i].pat;
    if !c_reads_only_rows(&c, &b.stms[j].pat, p_pat) {
        return None;
    }
    // Mapped results of the producer needed after the fused statement.
    let first_mapped = p.scan_arity() + p.red_arity();
    let extras: Vec<usize> = (first_mapped..p_pat.len())
        .filter(|&r| f.used_after(p_pat[r].name, i, j))
        .collect();
    let span = b.stms[j].span;
    let fused = compose(&p, p_pat, &c, &extras, fz.sums, span)?;
    let [ps, pr, _] = split3(&p, p_pat);
    let [cs, cr, cm] = split3(&c, &b.stms[j].pat);
    let pm: Vec<Param> = extras.iter().map(|&r| p_pat[r].clone()).collect();
    let pat = [ps, cs, pr, cr, cm, pm].concat();
    Some(order::reorder(b, i, j, pat, fused, &dep))
}

/// Whether the consumer uses the producer's results only as input arrays.
fn c_reads_only_rows(c: &Screma, c_pat: &[Param], p_pat: &[Param]) -> bool {
    let mut hit = false;
    let mut check = |v: VName| hit |= p_pat.iter().any(|p| p.name == v);
    lambda_uses(&c.lam, &mut check);
    for op in c.scans.iter().chain(c.reds.iter().map(|r| &r.op)) {
        lambda_uses(&op.lam, &mut check);
        op.neutral
            .iter()
            .filter_map(|o| o.var())
            .for_each(&mut check);
    }
    c.w.var().into_iter().for_each(&mut check);
    for p in c_pat {
        let mut dims = vec![];
        p.ty.dim_vars(&mut dims);
        dims.into_iter().for_each(&mut check);
    }
    !hit
}

/// The fused `screma`, or `None` where accumulators forbid it.
fn compose(
    p: &Screma,
    p_pat: &[Param],
    c: &Screma,
    extras: &[usize],
    sums: &Consumption,
    span: Span,
) -> Option<Screma> {
    let scans = [p.scans.clone(), c.scans.clone()].concat();
    let reds = [p.reds.clone(), c.reds.clone()].concat();
    let fused_has_ops = !scans.is_empty() || !reds.is_empty();
    let accs = (has_acc_inputs(p), has_acc_inputs(c));
    if (accs.0 && accs.1) || ((accs.0 || accs.1) && fused_has_ops) {
        return None;
    }
    // Which input of the consumer is which mapped result of the producer.
    let first_mapped = p.scan_arity() + p.red_arity();
    let link: Vec<Option<usize>> = c
        .arrs
        .iter()
        .map(|a| p_pat.iter().position(|q| q.name == *a))
        .collect();
    if link.iter().flatten().any(|&r| r < first_mapped) || link.iter().all(Option::is_none) {
        return None;
    }
    let consumed = sums.lambda(&c.lam).all_consumed();
    let mut sub = Subst::default();
    let mut binds = vec![];
    let (mut params, mut arrs) = (p.lam.params.clone(), p.arrs.clone());
    let p_consumed = sums.lambda(&p.lam).all_consumed();
    let plain = |q: &Param| !q.ty.is_acc() && !consumed.contains(&q.name);
    for ((cp, a), l) in c.lam.params.iter().zip(&c.arrs).zip(&link) {
        let Some(r) = *l else {
            // An array both read (neither updating it) comes in once.
            let shared = (0..p.arrs.len()).find(|&k| {
                let pp = &p.lam.params[k];
                p.arrs[k] == *a && plain(cp) && !pp.ty.is_acc() && !p_consumed.contains(&pp.name)
            });
            match shared {
                Some(k) => sub.set(cp.name, p.lam.params[k].name),
                None => {
                    params.push(cp.clone());
                    arrs.push(*a);
                }
            }
            continue;
        };
        // An accumulator links the two (order of updates), or the
        // consumer updates the row in place (it may be a value the
        // producer's lambda does not own).
        if p_pat[r].ty.is_acc() || consumed.contains(&cp.name) {
            return None;
        }
        match p.lam.body.result[r] {
            Operand::Var(v) => sub.set(cp.name, v),
            o @ Operand::Const(_) => binds.push(Stm::new(vec![cp.clone()], Exp::atom(o), span)),
        }
    }
    let mut c_body = c.lam.body.clone();
    subst::body(&mut c_body, &sub);
    let mut stms = p.lam.body.stms.clone();
    stms.extend(binds);
    stms.extend(c_body.stms);
    let [prs, prr, _] = split3(p, &p.lam.body.result);
    let [crs, crr, crm] = split3(c, &c_body.result);
    let prm: Vec<Operand> = extras.iter().map(|&r| p.lam.body.result[r]).collect();
    let result = [prs, crs, prr, crr, crm, prm].concat();
    let c_ret: Vec<Type> = c.lam.ret.iter().map(|t| sub.ty(t)).collect();
    let [pts, ptr, _] = split3(p, &p.lam.ret);
    let [cts, ctr, ctm] = split3(c, &c_ret);
    let ptm: Vec<Type> = extras.iter().map(|&r| p.lam.ret[r].clone()).collect();
    let ret = [pts, cts, ptr, ctr, ctm, ptm].concat();
    Some(Screma {
        w: c.w,
        arrs,
        scans,
        reds,
        lam: Lambda {
            params,
            ret,
            body: Body::new(stms, result),
        },
    })
}
