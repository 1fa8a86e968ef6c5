//! `if`: both branches are transformed in their own scope and return the
//! tangents of every result that has one in either branch (the other
//! branch returns zeros for it).

use super::Fwd;
use crate::Result;
use parad_core::*;

pub fn stm(f: &mut Fwd, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::If(If {
        cond,
        then_br,
        else_br,
        ret,
    }) = &s.exp
    else {
        unreachable!()
    };
    let tb = f.branch(b, then_br)?;
    let eb = f.branch(b, else_br)?;
    let keep: Vec<usize> = (0..ret.len())
        .filter(|&i| tb.tans[i].is_some() || eb.tans[i].is_some())
        .collect();
    let then_res = tb.res.clone();
    let then_br = f.finish(b, tb, &keep)?;
    let else_br = f.finish(b, eb, &keep)?;
    // Accumulator results change type when bundled; take the branch's.
    let mut new_ret: Vec<Type> = ret
        .iter()
        .zip(&then_res)
        .map(|(t, &r)| if t.is_acc() { b.type_of(r) } else { t.clone() })
        .collect();
    let tan_ret: Vec<Type> = keep.iter().map(|&i| new_ret[i].clone()).collect();
    new_ret.extend(tan_ret);
    let bundled: Vec<bool> = then_res
        .iter()
        .map(|r| r.var().is_some_and(|v| f.is_bundled(v)))
        .collect();
    f.emit_with_tangents(
        b,
        &s.pat,
        Exp::If(If {
            cond: *cond,
            then_br,
            else_br,
            ret: new_ret,
        }),
        "if_tan",
        &bundled,
        &keep,
    );
    Ok(())
}
