//! Horizontal fusion: two SOACs `S1` (statement `i`) and `S2` (statement
//! `j > i`) of the same width, `S2` not depending on `S1` directly or
//! through statements between them, become one `screma` whose lambda
//! runs both lambdas on each row. Its operators are `S1`'s scans, `S2`'s
//! scans, `S1`'s reductions, `S2`'s reductions; its mapped results
//! `S1`'s then `S2`'s. An array both read is passed once.

use super::deps::Facts;
use super::soac::{has_acc_inputs, parts, split3, to_screma};
use super::{order, Fuser};
use parad_core::consume::Consumption;
use parad_core::subst::{self, Subst};
use parad_core::*;

/// Fuses the first pair of independent SOACs of `b` that can be fused
/// (the nearest earlier partner of the earliest later statement);
/// returns the new statements.
pub fn fuse_one(b: &mut Body, f: &Facts, fz: &mut Fuser) -> Option<Vec<Stm>> {
    for j in 0..b.stms.len() {
        let Some((w2, _)) = parts(&b.stms[j].exp) else {
            continue;
        };
        let eqs = fz.eqs_at(b, j);
        for i in (0..j).rev() {
            let Some((w1, _)) = parts(&b.stms[i].exp) else {
                continue;
            };
            if !fz.widths.equal(&w1, &w2, &eqs) || b.stms[i].attrs != b.stms[j].attrs {
                continue;
            }
            if let Some(stms) = try_pair(b, f, fz, i, j) {
                return Some(stms);
            }
        }
    }
    None
}

fn try_pair(b: &mut Body, f: &Facts, fz: &mut Fuser, i: usize, j: usize) -> Option<Vec<Stm>> {
    if f.bound[i].iter().any(|v| f.uses[j].contains(v)) {
        return None;
    }
    // One statement cannot both read and consume an array.
    let reads_j = f.reads(j);
    if f.consumed[i].iter().any(|v| reads_j.contains(v)) {
        return None;
    }
    let (dep, names) = order::delayed(b, f, i, j)?;
    if f.uses[j].iter().any(|v| names.contains(v)) {
        return None;
    }
    let s1 = to_screma(&b.stms[i].exp, fz.names);
    let s2 = to_screma(&b.stms[j].exp, fz.names);
    let fused = combine(&s1, &s2, fz.sums)?;
    let [sc1, rd1, mp1] = split3(&s1, &b.stms[i].pat);
    let [sc2, rd2, mp2] = split3(&s2, &b.stms[j].pat);
    let pat = [sc1, sc2, rd1, rd2, mp1, mp2].concat();
    Some(order::reorder(b, i, j, pat, fused, &dep))
}

/// Both SOACs as one, or `None` where accumulators forbid it.
fn combine(s1: &Screma, s2: &Screma, sums: &Consumption) -> Option<Screma> {
    let scans = [s1.scans.clone(), s2.scans.clone()].concat();
    let reds = [s1.reds.clone(), s2.reds.clone()].concat();
    if (has_acc_inputs(s1) || has_acc_inputs(s2)) && !(scans.is_empty() && reds.is_empty()) {
        return None;
    }
    // Rows of an array both read (and neither updates) come in once.
    let (c1, c2) = (
        sums.lambda(&s1.lam).all_consumed(),
        sums.lambda(&s2.lam).all_consumed(),
    );
    let plain =
        |p: &Param, c: &rustc_hash::FxHashSet<VName>| !p.ty.is_acc() && !c.contains(&p.name);
    let mut sub = Subst::default();
    let (mut params, mut arrs) = (s1.lam.params.clone(), s1.arrs.clone());
    for (p, a) in s2.lam.params.iter().zip(&s2.arrs) {
        let same = (0..s1.arrs.len())
            .find(|&k| s1.arrs[k] == *a && plain(&s1.lam.params[k], &c1) && plain(p, &c2));
        match same {
            Some(k) => sub.set(p.name, s1.lam.params[k].name),
            None => {
                params.push(p.clone());
                arrs.push(*a);
            }
        }
    }
    let mut body2 = s2.lam.body.clone();
    subst::body(&mut body2, &sub);
    let ret2: Vec<Type> = s2.lam.ret.iter().map(|t| sub.ty(t)).collect();
    let [r1s, r1r, r1m] = split3(s1, &s1.lam.body.result);
    let [r2s, r2r, r2m] = split3(s2, &body2.result);
    let [t1s, t1r, t1m] = split3(s1, &s1.lam.ret);
    let [t2s, t2r, t2m] = split3(s2, &ret2);
    let stms = [s1.lam.body.stms.clone(), body2.stms].concat();
    Some(Screma {
        w: s2.w,
        arrs,
        scans,
        reds,
        lam: Lambda {
            params,
            ret: [t1s, t2s, t1r, t2r, t1m, t2m].concat(),
            body: Body::new(stms, [r1s, r2s, r1r, r2r, r1m, r2m].concat()),
        },
    })
}
