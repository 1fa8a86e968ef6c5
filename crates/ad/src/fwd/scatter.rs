//! `scatter`: the tangents of the values are written at the same indices
//! into the tangent of the destination (a write replaces the element, so
//! its tangent is replaced too).

use super::build::is_diff;
use super::reduce::tangent_vars;
use super::Fwd;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Scatter(Scatter { w, dests })) = &s.exp else {
        unreachable!()
    };
    let mut tan_dests = vec![];
    let mut which = vec![];
    for (i, d) in dests.iter().enumerate() {
        let active = f.tan(d.arr.into()).is_some() || f.tan(d.vals.into()).is_some();
        if active && is_diff(&b.type_of(d.arr)) {
            let t = tangent_vars(f, b, &[d.arr, d.vals], &[true, true]);
            tan_dests.push(ScatterDest {
                arr: t[0],
                inds: d.inds.clone(),
                vals: t[1],
            });
            which.push(i);
        }
    }
    let exp = Exp::Soac(Soac::Scatter(Scatter {
        w: *w,
        dests: dests.iter().cloned().chain(tan_dests).collect(),
    }));
    let names = f.emit_extended(b, &s.pat, exp, "scatter_tan");
    for (k, &i) in which.iter().enumerate() {
        let p = &s.pat[i];
        f.set(p.name, &p.ty, Some(names[s.pat.len() + k].into()));
    }
    Ok(())
}
