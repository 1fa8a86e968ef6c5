//! The `map` rule for a statically sparse result adjoint (seed 001 §3.2):
//! when the only adjoint of a map's results is zero except at a few rows
//! (after `min`/`max` reductions), only those iterations are
//! differentiated. Each point `(i, c)` becomes a map over the slice
//! `arrs[i:i+k]` with `k = 1` (or `k = 0` if `i` is out of bounds, so
//! that an empty reduction's index -1 contributes nothing) whose result
//! adjoint is `[c]`, handled by the ordinary map rule; the adjoints of
//! the slices go back into the inputs at `[i:i+k]`.

use super::adjenv::{Adj, Rev};
use super::build::{in_bounds, select};
use crate::Result;
use parad_core::*;

/// Applies the sparse rule to map statement `s` if it fits; returns
/// whether it did.
pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<bool> {
    let Exp::Soac(Soac::Map(Map { w, lam, arrs })) = &s.exp else {
        return Ok(false);
    };
    let sparse: Vec<usize> = (0..s.pat.len())
        .filter(|&j| r.sparse.contains_key(&s.pat[j].name))
        .collect();
    let [j] = sparse[..] else {
        return Ok(false);
    };
    let others = (0..s.pat.len()).any(|q| q != j && r.has_adj(s.pat[q].name));
    if others || arrs.iter().any(|&a| b.type_of(r.p(a)).is_acc()) {
        return Ok(false);
    }
    let points = r.sparse.remove(&s.pat[j].name).expect("sparse adjoint");
    let w = r.po(*w);
    for (i, c) in points {
        let ok = in_bounds(b, i, w);
        let k = select(b, ok, Operand::i64(1), Operand::i64(0));
        let slice = vec![DimIndex::Slice {
            start: i,
            len: k,
            stride: Operand::i64(1),
        }];
        let rows: Vec<VName> = arrs
            .iter()
            .map(|&a| {
                let pa = r.p(a);
                b.slice(pa, slice.clone())
            })
            .collect();
        for (&a, &row) in arrs.iter().zip(&rows) {
            if r.active.contains(&a) {
                r.active.insert(row);
            }
        }
        let res_t = b
            .type_of(r.p(s.pat[j].name))
            .row()
            .and_then(|t| t.array_of(Dim::from_operand(&k)))
            .expect("map result");
        let res = b.param("sparse_res", res_t);
        r.active.insert(res.name);
        let seed = b.replicate(k, c);
        r.adj.insert(res.name, Adj::Val(seed.into()));
        let mut pat: Vec<Param> = vec![];
        for (q, p) in s.pat.iter().enumerate() {
            if q == j {
                pat.push(res.clone());
            } else {
                // Results without adjoints: never read by the map rule.
                pat.push(b.param("unused", p.ty.clone()));
            }
        }
        let one = Stm {
            pat,
            exp: Exp::Soac(Soac::Map(Map {
                w: k,
                lam: lam.clone(),
                arrs: rows.clone(),
            })),
            span: s.span,
            attrs: vec![],
        };
        super::map::rev(r, b, &one)?;
        r.forget(res.name);
        for (&a, &row) in arrs.iter().zip(&rows) {
            if r.has_adj(row) {
                let adj = r.adj_val(b, row);
                r.add_at(b, a, &slice, adj);
                r.forget(row);
            }
        }
    }
    Ok(true)
}
