//! `if`: the return sweep is an `if` on the same condition whose branches
//! re-execute the branch's forward statements and then its return sweep
//! (seeded with the adjoints of the `if`'s results). Both branches return
//! the adjoints of every active free variable of either branch.

use super::adjenv::{Adj, Rev};
use crate::Result;
use parad_core::free::free_in_body;
use parad_core::*;

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::If(If {
        cond,
        then_br,
        else_br,
        ..
    }) = &s.exp
    else {
        unreachable!()
    };
    let seeds = r.seeds(b, &s.pat);
    let mut free: Vec<VName> = free_in_body(then_br)
        .union(&free_in_body(else_br))
        .copied()
        .collect();
    free.sort();
    let cands: Vec<VName> = free.iter().copied().filter(|&v| r.wants(b, v)).collect();
    let before: Vec<Adj> = cands.iter().map(|&v| r.adj_any(b, v)).collect();
    let ret: Vec<Type> = before.iter().map(|a| r.adj_type(b, *a)).collect();
    let saved_subst = r.save_subst(&free);
    let branch = |r: &mut Rev, b: &mut Builder, br: &Body| -> Result<Body> {
        for (&v, &a) in cands.iter().zip(&before) {
            r.adj.insert(v, a);
        }
        let (stms, res) = b.nested(|b| -> Result<Vec<Operand>> {
            r.body(b, br, &seeds)?;
            Ok(cands.iter().map(|&v| r.adj_operand(b, v)).collect())
        });
        r.restore_subst(&saved_subst);
        Ok(Body::new(stms, res?))
    };
    let then_b = branch(r, b, then_br)?;
    let else_b = branch(r, b, else_br)?;
    let out = b.emit_as(
        "adj",
        Exp::If(If {
            cond: r.po(*cond),
            then_br: then_b,
            else_br: else_b,
            ret,
        }),
    );
    for ((&v, a), o) in cands.iter().zip(before).zip(out) {
        let new = match a {
            Adj::Val(_) => Adj::Val(o.into()),
            Adj::Acc(_) => Adj::Acc(o),
        };
        r.adj.insert(v, new);
    }
    Ok(())
}
