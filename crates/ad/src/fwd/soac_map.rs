//! `map`: tangents are bundled into the lambda, which takes the rows of
//! the arrays and then the rows of their non-zero tangents, and returns
//! its results and then their non-zero tangents. Free variables of the
//! lambda keep their tangents, which are in scope inside it.

use super::Fwd;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Map(Map { w, lam, arrs })) = &s.exp else {
        unreachable!()
    };
    let mut params = vec![];
    let mut tan_params = vec![];
    let mut new_arrs = arrs.clone();
    for (p, &arr) in lam.params.iter().zip(arrs) {
        let mut ty = p.ty.clone();
        if f.is_bundled(arr) {
            ty = b.type_of(arr);
            b.ctx.types.insert(p.name, ty.clone());
            f.bundle(p.name);
        }
        params.push(Param::new(p.name, ty));
        match f.tan(arr.into()) {
            Some(Operand::Var(t)) => {
                let tp = b.param("row_tan", p.ty.clone());
                f.set(p.name, &p.ty, Some(tp.name.into()));
                tan_params.push(tp);
                new_arrs.push(t);
            }
            _ => f.set(p.name, &p.ty, None),
        }
    }
    params.extend(tan_params);
    let (body, keep) = f.nested_body(b, &lam.body)?;
    let mut ret: Vec<Type> = lam
        .ret
        .iter()
        .zip(&body.result)
        .map(|(t, &r)| if t.is_acc() { b.type_of(r) } else { t.clone() })
        .collect();
    let bundled: Vec<bool> = body.result[..lam.ret.len()]
        .iter()
        .map(|r| r.var().is_some_and(|v| f.is_bundled(v)))
        .collect();
    let tan_ret: Vec<Type> = keep.iter().map(|&i| ret[i].clone()).collect();
    ret.extend(tan_ret);
    f.emit_with_tangents(
        b,
        &s.pat,
        Exp::Soac(Soac::Map(Map {
            w: *w,
            lam: Lambda { params, ret, body },
            arrs: new_arrs,
        })),
        "map_tan",
        &bundled,
        &keep,
    );
    Ok(())
}
