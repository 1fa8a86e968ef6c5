//! In-place update `ys = xs with [slice] = v`: the forward sweep saves
//! the overwritten elements, the return sweep takes `v̄` from `ȳs[slice]`,
//! gives `x̄s` the rest of `ȳs`, and restores `xs` (in place, from `ys`)
//! for the return sweeps of earlier statements. Saved elements and `v̄`
//! are copies when they are arrays: a slice is a view of the array that
//! is then updated in place (`parad_core::consume`).

use super::adjenv::Rev;
use super::build::zeros_like;
use super::Saved;
use crate::Result;
use parad_core::*;

fn subst_slice(r: &Rev, slice: &[DimIndex]) -> Vec<DimIndex> {
    slice
        .iter()
        .map(|d| match *d {
            DimIndex::Fix(i) => DimIndex::Fix(r.po(i)),
            DimIndex::Slice { start, len, stride } => DimIndex::Slice {
                start: r.po(start),
                len: r.po(len),
                stride: r.po(stride),
            },
        })
        .collect()
}

/// `x` itself if a scalar, else a copy.
fn own(b: &mut Builder, x: VName) -> VName {
    if b.type_of(x).rank() > 0 {
        b.copy(x)
    } else {
        x
    }
}

pub fn fwd(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<Saved> {
    let Exp::Basic(BasicOp::Update { arr, slice, .. }) = &s.exp else {
        unreachable!()
    };
    let old = b.slice(r.p(*arr), subst_slice(r, slice));
    let old = own(b, old);
    r.copy_stm(b, s);
    Ok(Saved::Overwritten(vec![old.into()]))
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm, saved: Saved, needed: bool) -> Result<()> {
    let Exp::Basic(BasicOp::Update { arr, slice, value }) = &s.exp else {
        unreachable!()
    };
    let Saved::Overwritten(old) = saved else {
        return Ok(());
    };
    let ys = s.pat[0].name;
    let slice = subst_slice(r, slice);
    if needed {
        let yb = r.adj_val(b, ys).var().expect("array adjoint");
        if r.wants_op(b, *value) {
            let vb = b.slice(yb, slice.clone());
            let vb = own(b, vb);
            r.add_op(b, *value, vb.into());
        }
        if r.wants(b, *arr) {
            let z = zeros_like(b, old[0]);
            let xb = b.emit1(Exp::Basic(BasicOp::Update {
                arr: yb,
                slice: slice.clone(),
                value: z,
            }));
            r.add(b, *arr, xb.into());
        }
    }
    let restored = b.emit1(Exp::Basic(BasicOp::Update {
        arr: r.p(ys),
        slice,
        value: old[0],
    }));
    r.subst.set(*arr, restored);
    Ok(())
}
