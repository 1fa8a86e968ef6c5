//! `reduce_by_index`: the destinations and their tangents are reduced
//! together with the lifted operator of [`super::reduce::lift_op`], so
//! each bin's tangent starts from the destination's tangent.

use super::reduce::{active_components, lift_op, set_extra_tangents, tangent_vars};
use super::Fwd;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Hist(Hist {
        w,
        dests,
        op,
        inds,
        vals,
    })) = &s.exp
    else {
        unreachable!()
    };
    let tys = b.row_types(vals);
    let init = dests
        .iter()
        .zip(vals)
        .map(|(&d, &v)| f.tan(d.into()).is_some() || f.tan(v.into()).is_some())
        .collect();
    let fl = active_components(f, op, &tys, init);
    let tan_dests = tangent_vars(f, b, dests, &fl);
    let tan_vals = tangent_vars(f, b, vals, &fl);
    let lifted = lift_op(f, b, op, &fl)?;
    let exp = Exp::Soac(Soac::Hist(Hist {
        w: *w,
        dests: dests.iter().copied().chain(tan_dests).collect(),
        op: lifted,
        inds: inds.clone(),
        vals: vals.iter().copied().chain(tan_vals).collect(),
    }));
    let names = f.emit_extended(b, &s.pat, exp, "hist_tan");
    set_extra_tangents(f, &s.pat, &names[s.pat.len()..], &fl);
    Ok(())
}
