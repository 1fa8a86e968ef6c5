//! Sequential loops.
//!
//! - A `for` loop whose bound is a constant `<= 0` runs no iteration: its
//!   results are the initial values.
//! - Statements of a loop body that depend on no loop parameter, on no
//!   index and on nothing else computed in the body, that cannot fail
//!   and overwrite nothing ([`super::cannot_fail`]), and whose results
//!   are not consumed (every iteration would need its own copy), move
//!   before the loop. Running them when the loop runs no iteration is
//!   harmless since they cannot fail, and they are cheap. The same goes
//!   for the lambdas of `map`s ([`map_invariant`]).

use super::{as_i64, bind_all, cannot_fail, with_exp, Ctx};
use parad_core::free::stm_uses;
use parad_core::*;
use rustc_hash::FxHashSet;

pub fn loop_no_trips(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    match &s.exp {
        Exp::Loop(Loop {
            params,
            form:
                LoopForm::For {
                    bound: Operand::Const(b),
                    ..
                },
            ..
        }) if as_i64(*b).is_some_and(|b| b <= 0) => {
            let inits: Vec<Operand> = params.iter().map(|(_, o)| *o).collect();
            Some(bind_all(s, &inits))
        }
        _ => None,
    }
}

/// Splits `stms` into those that move out of a body binding `variant`
/// (see the module doc) and those that stay.
pub(super) fn split_invariant(
    ctx: &Ctx,
    stms: &[Stm],
    mut variant: FxHashSet<VName>,
) -> (Vec<Stm>, Vec<Stm>) {
    let mut hoisted = vec![];
    let mut rest = vec![];
    for st in stms {
        let mut uses_variant = false;
        stm_uses(st, &mut |v| uses_variant |= variant.contains(&v));
        let movable = !uses_variant
            && cannot_fail(&st.exp)
            && !st.pat.is_empty()
            && st
                .pat
                .iter()
                .all(|p| matches!(p.ty, Type::Prim(_)) || !ctx.may_be_consumed(p.name));
        if movable {
            hoisted.push(st.clone());
        } else {
            variant.extend(st.pat.iter().map(|p| p.name));
            rest.push(st.clone());
        }
    }
    (hoisted, rest)
}

pub fn loop_invariant(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Loop(l) = &s.exp else {
        return None;
    };
    let mut variant: FxHashSet<VName> = l.params.iter().map(|(p, _)| p.name).collect();
    if let LoopForm::For { i, .. } = &l.form {
        variant.insert(*i);
    }
    let (mut hoisted, rest) = split_invariant(ctx, &l.body.stms, variant);
    if hoisted.is_empty() {
        return None;
    }
    let mut l = l.clone();
    l.body.stms = rest;
    hoisted.push(with_exp(s, l.into()));
    Some(hoisted)
}

/// The same for the lambda of a `map`: its cheap scalar statements that
/// depend on no element move before it (where CSE can share them with
/// the same statements of other lambdas). Heavier invariant work is
/// [`crate::hoist`]'s.
pub fn map_invariant(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let variant: FxHashSet<VName> = m.lam.params.iter().map(|p| p.name).collect();
    let (mut hoisted, rest) = split_invariant(ctx, &m.lam.body.stms, variant);
    if hoisted.is_empty() {
        return None;
    }
    let mut m = m.clone();
    m.lam.body.stms = rest;
    hoisted.push(with_exp(s, m.into()));
    Some(hoisted)
}
