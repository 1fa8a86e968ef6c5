//! Putting two statements `i < j` of a body together at `j`: statement
//! `i` and the statements between that depend on it are delayed, the
//! fused statement takes `j`'s place and the dependent statements follow
//! it. See the module documentation of `fuse` for why that is sound.

use super::deps::{Facts, Names};
use super::soac::to_exp;
use parad_core::{Body, Param, Screma, Stm};

/// The statements strictly between `i` and `j` that depend on `i`
/// (transitively), and every name `i` and they bind; `None` when they
/// cannot be delayed past `j`: an assertion among them (what follows may
/// rely on it) or a statement they are delayed past consuming what they
/// read.
pub fn delayed(b: &Body, f: &Facts, i: usize, j: usize) -> Option<(Vec<usize>, Names)> {
    let mut names: Names = f.bound[i].iter().copied().collect();
    let mut dep = vec![];
    for k in i + 1..j {
        if f.uses[k].iter().any(|v| names.contains(v)) {
            if Facts::is_assert(b, k) {
                return None;
            }
            dep.push(k);
            names.extend(f.bound[k].iter().copied());
        }
    }
    let moved = std::iter::once(i).chain(dep.iter().copied());
    for m in moved {
        let reads = f.reads(m);
        let passed = (m + 1..=j).filter(|r| !dep.contains(r));
        for r in passed {
            if f.consumed[r].iter().any(|v| reads.contains(v)) {
                return None;
            }
        }
    }
    Some((dep, names))
}

/// The statements of `b` with `i` and `j` replaced by `let pat = fused`
/// at `j`'s place (with `j`'s span and attributes) and the statements
/// `dep` (between them, in order) after it.
pub fn reorder(
    b: &mut Body,
    i: usize,
    j: usize,
    pat: Vec<Param>,
    fused: Screma,
    dep: &[usize],
) -> Vec<Stm> {
    let fused = Stm {
        pat,
        exp: to_exp(fused),
        span: b.stms[j].span,
        attrs: b.stms[j].attrs.clone(),
    };
    let stms = std::mem::take(&mut b.stms);
    let mut out = Vec::with_capacity(stms.len());
    let mut after = vec![];
    let mut fused = Some(fused);
    for (k, s) in stms.into_iter().enumerate() {
        if k == i {
            continue;
        } else if k == j {
            out.extend(fused.take());
            // Every statement of `dep` comes before `j`.
            out.append(&mut after);
        } else if dep.contains(&k) {
            after.push(s);
        } else {
            out.push(s);
        }
    }
    out
}
