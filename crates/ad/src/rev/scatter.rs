//! `scatter`: the forward sweep saves the elements about to be
//! overwritten (O(w), not a copy of the destination); the return sweep
//! gathers `v̄s` from `ȳs`, zeroes the overwritten positions of `ȳs` to
//! get `x̄s`, and restores the destination by scattering the saved
//! elements back. With duplicate indices only the write that the primal
//! kept gets the adjoint: which one that is, is found by scattering the
//! write numbers `0..w` the same way.

use super::adjenv::Rev;
use super::build::{if_, in_bounds, map, zero_elem, zeros_like};
use super::Saved;
use crate::Result;
use parad_core::*;

/// `map (λ i… → if in bounds then arr[i…] else 0) inds…`.
pub fn gather(b: &mut Builder, w: Operand, arr: VName, inds: &[VName]) -> VName {
    gather_where(b, w, arr, inds, None)
}

/// Like [`gather`], but write `j` only reads where `winner[i…] = j`.
fn gather_where(
    b: &mut Builder,
    w: Operand,
    arr: VName,
    inds: &[VName],
    winner: Option<VName>,
) -> VName {
    let at = b.type_of(arr);
    let k = inds.len();
    let elem_t = at.drop_dims(k).expect("scatter destination rank");
    let dims: Vec<Operand> = (0..k).map(|d| b.dim(arr, d)).collect();
    let mut ins = inds.to_vec();
    if winner.is_some() {
        ins.push(b.iota(w));
    }
    map(b, w, &ins, |b, is| {
        let mut ok: Option<VName> = None;
        for (&i, &n) in is.iter().zip(&dims) {
            let c = in_bounds(b, i.into(), n);
            ok = Some(match ok {
                None => c,
                Some(o) => b.binop(BinOp::And, o, c),
            });
        }
        let idx: Vec<Operand> = is[..k].iter().map(|&i| i.into()).collect();
        let mut ok = ok.expect("at least one index");
        if let Some(win) = winner {
            let j = is[k];
            let won = if_(
                b,
                ok,
                vec![Type::Prim(parad_base::PrimType::Bool)],
                |b| {
                    let wj = b.index(win, &idx);
                    vec![b.cmp(CmpOp::Eq, wj, j).into()]
                },
                |_| vec![Operand::Const(parad_values::Scalar::Bool(false))],
            );
            ok = won[0];
        }
        if_(
            b,
            ok,
            vec![elem_t],
            |b| vec![b.index(arr, &idx).into()],
            |b| {
                // An element-shaped zero: index row 0 cannot be used (the
                // array may be empty), so build it from the dimensions.
                vec![zero_elem(b, arr, k)]
            },
        )
        .into_iter()
        .map(Operand::Var)
        .collect()
    })[0]
}

/// For each position of the index space of `arr`, the number of the
/// write that a scatter with indices `inds` leaves there (-1 if none).
fn winners(b: &mut Builder, w: Operand, arr: VName, inds: &[VName]) -> VName {
    let mut z = Operand::i64(-1);
    for d in (0..inds.len()).rev() {
        let n = b.dim(arr, d);
        z = b.replicate(n, z).into();
    }
    let js = b.iota(w);
    b.emit1(Exp::Soac(Soac::Scatter(Scatter {
        w,
        dests: vec![ScatterDest {
            arr: z.var().expect("array"),
            inds: inds.to_vec(),
            vals: js,
        }],
    })))
}

fn subst_dest(r: &Rev, d: &ScatterDest) -> ScatterDest {
    ScatterDest {
        arr: r.p(d.arr),
        inds: d.inds.iter().map(|&i| r.p(i)).collect(),
        vals: r.p(d.vals),
    }
}

pub fn fwd(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<Saved> {
    let Exp::Soac(Soac::Scatter(Scatter { w, dests })) = &s.exp else {
        unreachable!()
    };
    let w = r.po(*w);
    let saved = dests
        .iter()
        .map(|d| {
            let d = subst_dest(r, d);
            gather(b, w, d.arr, &d.inds).into()
        })
        .collect();
    r.copy_stm(b, s);
    Ok(Saved::Overwritten(saved))
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm, saved: Saved, _needed: bool) -> Result<()> {
    let Exp::Soac(Soac::Scatter(Scatter { w, dests })) = &s.exp else {
        unreachable!()
    };
    let Saved::Overwritten(saved) = saved else {
        return Ok(());
    };
    let w = r.po(*w);
    for ((d, p), old) in dests.iter().zip(&s.pat).zip(saved) {
        let sd = subst_dest(r, d);
        if r.has_adj(p.name) {
            let yb = r.adj_val(b, p.name).var().expect("array adjoint");
            if r.wants(b, d.vals) {
                let win = winners(b, w, sd.arr, &sd.inds);
                let vb = gather_where(b, w, yb, &sd.inds, Some(win));
                r.add(b, d.vals, vb.into());
            }
            if r.wants(b, d.arr) {
                let z = zeros_like(b, old);
                let xb = b.emit1(Exp::Soac(Soac::Scatter(Scatter {
                    w,
                    dests: vec![ScatterDest {
                        arr: yb,
                        inds: sd.inds.clone(),
                        vals: z.var().expect("array"),
                    }],
                })));
                r.add(b, d.arr, xb.into());
            }
        }
        let restored = b.emit1(Exp::Soac(Soac::Scatter(Scatter {
            w,
            dests: vec![ScatterDest {
                arr: r.p(p.name),
                inds: sd.inds,
                vals: old.var().expect("array"),
            }],
        })));
        r.subst.set(d.arr, restored);
    }
    Ok(())
}
