//! Branches.
//!
//! - `if true then A else B` is `A` (its statements, then its results
//!   bound to the pattern), and likewise for `false`;
//! - `if c then A else A` (equal up to the names bound inside) is `A`;
//! - a result that is the same operand from outside in both branches is
//!   bound to it before the `if` and dropped from it;
//! - `if c then true else false` is `c`, and with the branches swapped
//!   `not c`.

use super::{bind_all, bound_in, canonical_body, stm, with_exp, Ctx};
use parad_base::{PrimType, Scalar};
use parad_core::*;

/// The branch's statements followed by its results bound to `s`'s
/// pattern.
fn inline(s: &Stm, b: &Body) -> Vec<Stm> {
    let mut out = b.stms.clone();
    out.extend(bind_all(s, &b.result));
    out
}

pub fn if_const(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    match &s.exp {
        Exp::If(If {
            cond: Operand::Const(Scalar::Bool(c)),
            then_br,
            else_br,
            ..
        }) => Some(inline(s, if *c { then_br } else { else_br })),
        _ => None,
    }
}

pub fn if_same_branches(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::If(i) = &s.exp else {
        return None;
    };
    (canonical_body(&i.then_br) == canonical_body(&i.else_br)).then(|| inline(s, &i.then_br))
}

pub fn if_same_results(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::If(i) = &s.exp else {
        return None;
    };
    let inner = bound_in(&s.exp);
    let outside = |o: &Operand| o.var().is_none_or(|v| !inner.contains(&v));
    let same: Vec<bool> = (i.then_br.result.iter().zip(&i.else_br.result))
        .map(|(a, b)| a == b && outside(a))
        .collect();
    if !same.contains(&true) {
        return None;
    }
    // Another result's type may name this one (an existential size):
    // binding it before the `if` keeps it in scope.
    let mut out = vec![];
    let mut kept = If {
        cond: i.cond,
        then_br: Body::new(i.then_br.stms.clone(), vec![]),
        else_br: Body::new(i.else_br.stms.clone(), vec![]),
        ret: vec![],
    };
    let mut pat = vec![];
    for (k, p) in s.pat.iter().enumerate() {
        if same[k] {
            out.push(stm(vec![p.clone()], Exp::atom(i.then_br.result[k]), s));
        } else {
            pat.push(p.clone());
            kept.ret.push(i.ret[k].clone());
            kept.then_br.result.push(i.then_br.result[k]);
            kept.else_br.result.push(i.else_br.result[k]);
        }
    }
    let mut rest = with_exp(s, kept.into());
    rest.pat = pat;
    out.push(rest);
    Some(out)
}

pub fn if_bool(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::If(i) = &s.exp else {
        return None;
    };
    let b = |o: &[Operand]| match o {
        [Operand::Const(Scalar::Bool(x))] => Some(*x),
        _ => None,
    };
    if !i.then_br.stms.is_empty() || !i.else_br.stms.is_empty() {
        return None;
    }
    let e = match (b(&i.then_br.result)?, b(&i.else_br.result)?) {
        (true, false) => Exp::atom(i.cond),
        (false, true) => BasicOp::UnOp(UnOp::Not, PrimType::Bool, i.cond).into(),
        _ => return None,
    };
    Some(vec![with_exp(s, e)])
}
