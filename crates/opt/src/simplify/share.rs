//! Copy propagation and common-subexpression elimination.
//!
//! `let a = b` and `let a = 1` go: later uses of `a` read `b` or `1`.
//! That keeps aliasing as it was (`a` was a view of `b`), so consumption
//! stays valid. A statement whose canonical form (bound names numbered,
//! see [`super::canonical_exp`]) was already computed in scope is replaced
//! by the earlier names; this covers SOACs, branches and loops. Never
//! shared: statements that overwrite memory or call functions, that bind
//! accumulators, or whose array results may be consumed (both copies must
//! stay distinct then). An assertion of a condition already asserted
//! goes, whatever its message.

use super::{canonical_exp, unshareable, Ctx};
use parad_core::*;

pub fn copy_prop(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    match (&s.exp, s.pat.as_slice()) {
        (Exp::Basic(BasicOp::Atom(o)), [p]) => {
            ctx.replace(p.name, *o);
            Some(vec![])
        }
        _ => None,
    }
}

/// The CSE key of `s`, if it may be shared.
fn key(ctx: &Ctx, s: &Stm) -> Option<String> {
    if let Exp::Basic(BasicOp::Assert { cond, .. }) = &s.exp {
        return Some(format!("assert {cond:?}"));
    }
    if s.pat.is_empty()
        || unshareable(&s.exp)
        || s.pat.iter().any(|p| {
            p.ty.is_acc() || (!matches!(p.ty, Type::Prim(_)) && ctx.may_be_consumed(p.name))
        })
    {
        return None;
    }
    Some(canonical_exp(&s.exp))
}

pub fn cse(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let k = key(ctx, s)?;
    let (prev, depth) = ctx.avail.get(&k)?.clone();
    // An array computed outside a lambda is not shared into it: that would
    // make the lambda read a free array where it built its own (an `iota`
    // that fusion could have kept virtual, and whose adjoint AD would then
    // accumulate).
    if depth != ctx.lambda_depth && s.pat.iter().any(|p| !matches!(p.ty, Type::Prim(_))) {
        return None;
    }
    if prev.len() != s.pat.len() {
        return None;
    }
    for (p, q) in s.pat.iter().zip(prev) {
        ctx.replace(p.name, Operand::Var(q));
    }
    Some(vec![])
}

/// Makes a kept statement available to later ones in scope.
pub fn make_available(ctx: &mut Ctx, s: &Stm) {
    if let Some(k) = key(ctx, s) {
        let names = s.pat.iter().map(|p| p.name).collect();
        if !ctx.avail.contains_key(&k) {
            ctx.avail.insert(k.clone(), (names, ctx.lambda_depth));
            ctx.avail_added.push(k);
        }
    }
}
