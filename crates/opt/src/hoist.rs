//! Map-invariant code motion: statements of a `map` lambda that do not
//! depend on its parameters are computed once, before the `map`.
//!
//! This is what makes `jmp`/`mjp` (a `map` of `jvp`/`vjp` over seeds)
//! compute the primal part of the program once rather than once per
//! seed, and it helps user code that recomputes the same value in every
//! iteration.
//!
//! Semantics are kept exactly: the hoisted statements run under
//! `if 0 < w`, so a `map` over an empty array still evaluates nothing
//! (an out-of-bounds index or failing assertion among them cannot fire
//! where it would not have). The `else` branch yields placeholders: zeros
//! and empty or uninitialised arrays, never read. Arrays that the lambda
//! consumes, or that alias what it consumes (`parad_core::consume`:
//! in-place updates, scatter and histogram destinations, consumed loop
//! parameters, accumulators), stay inside: every iteration needs its own.
//!
//! Inner maps are processed first, so an invariant guarded block can move
//! out through several levels of nesting.

use parad_base::{IntType, PrimType};
use parad_core::builder::erase_inner;
use parad_core::consume::Consumption;
use parad_core::free::stm_uses;
use parad_core::subst::{self, Subst};
use parad_core::*;
use parad_values::Scalar;
use rustc_hash::FxHashSet;

pub fn hoist_program(prog: &mut Program) {
    // What calls consume does not change by hoisting.
    let sums = Consumption::of_program(prog);
    let mut names = std::mem::take(&mut prog.names);
    for f in &mut prog.funs {
        hoist_body(&mut f.body, &mut names, &sums);
    }
    prog.names = names;
}

fn hoist_body(body: &mut Body, names: &mut NameSource, sums: &Consumption) {
    walk::rewrite_stms(body, &mut |mut s, out| {
        if let Exp::Soac(Soac::Map(Map { w, lam, .. })) = &mut s.exp {
            if let Some(guard) = hoist_map(*w, lam, names, sums, s.span) {
                out.extend(guard);
            }
        }
        out.push(s);
    })
}

fn worth_hoisting(e: &Exp) -> bool {
    matches!(
        e,
        Exp::Soac(Soac::Map(Map { .. }))
            | Exp::Soac(Soac::Reduce(Reduce { .. }))
            | Exp::Soac(Soac::Scan(Scan { .. }))
            | Exp::Soac(Soac::Hist(Hist { .. }))
            | Exp::Soac(Soac::Scatter(Scatter { .. }))
            | Exp::Loop(Loop { .. })
            | Exp::If(If { .. })
            | Exp::Ad(AdOp::WithVjp(WithVjp { .. }))
    )
}

fn is_acc_stm(s: &Stm) -> bool {
    s.pat.iter().any(|p| p.ty.is_acc())
}

/// Moves the invariant statements of `lam` into a guarded block, returned
/// as the statements to put before the map (`None` if there are none).
fn hoist_map(
    w: Operand,
    lam: &mut Lambda,
    names: &mut NameSource,
    sums: &Consumption,
    span: parad_base::Span,
) -> Option<Vec<Stm>> {
    let mut variant: FxHashSet<VName> = lam.params.iter().map(|p| p.name).collect();
    // Names consumed anywhere in the lambda (through aliases too).
    let keep_inside = sums.lambda(lam).all_consumed();
    let mut hoisted = vec![];
    let mut rest = vec![];
    for s in std::mem::take(&mut lam.body.stms) {
        let mut uses_variant = false;
        stm_uses(&s, &mut |v| uses_variant |= variant.contains(&v));
        let movable = !uses_variant
            && !is_acc_stm(&s)
            && !s.pat.iter().any(|p| keep_inside.contains(&p.name))
            && !matches!(
                s.exp,
                Exp::Basic(BasicOp::Upd { .. }) | Exp::Soac(Soac::WithAcc(WithAcc { .. }))
            );
        if movable {
            hoisted.push(s);
        } else {
            variant.extend(s.pat.iter().map(|p| p.name));
            rest.push(s);
        }
    }
    lam.body.stms = rest;
    // Only blocks doing real work (a loop or a parallel operation) are
    // worth a guard; cheap scalar and layout work stays where it is.
    if !hoisted.iter().any(|s| worth_hoisting(&s.exp)) {
        let mut stms = hoisted;
        stms.append(&mut lam.body.stms);
        lam.body.stms = stms;
        return None;
    }
    Some(guarded(w, hoisted, names, span))
}

/// `let (x…) = if 0 < w then { hoisted, renamed; x'… } else { placeholders }`
/// binding the hoisted statements' own names.
fn guarded(
    w: Operand,
    hoisted: Vec<Stm>,
    names: &mut NameSource,
    span: parad_base::Span,
) -> Vec<Stm> {
    let bound: Vec<Param> = hoisted.iter().flat_map(|s| s.pat.iter().cloned()).collect();
    let inner: FxHashSet<VName> = bound.iter().map(|p| p.name).collect();
    // Fresh names inside the branch; the original ones are bound by the `if`.
    let mut sub = Subst::default();
    for p in &bound {
        sub.set(p.name, names.fresh_like(p.name));
    }
    let mut then_stms = hoisted;
    for s in &mut then_stms {
        for p in &mut s.pat {
            p.name = sub.get(p.name);
        }
    }
    let mut then_br = Body {
        stms: then_stms,
        result: bound.iter().map(|p| Operand::Var(p.name)).collect(),
    };
    subst::body(&mut then_br, &sub);
    let ret: Vec<Type> = bound.iter().map(|p| erase_inner(&p.ty, &inner)).collect();
    let mut else_br = Body {
        stms: vec![],
        result: vec![],
    };
    for t in &ret {
        let o = placeholder(t, &mut else_br, names, span);
        else_br.result.push(o);
    }
    let c = names.fresh("nonempty");
    let cond = Stm {
        pat: vec![Param::new(c, Type::Prim(PrimType::Bool))],
        exp: Exp::Basic(BasicOp::Cmp(
            CmpOp::Lt,
            PrimType::Int(IntType::I64),
            Operand::i64(0),
            w,
        )),
        span,
        attrs: vec![],
    };
    let pat = bound
        .into_iter()
        .zip(&ret)
        .map(|(p, t)| Param::new(p.name, t.clone()))
        .collect();
    vec![
        cond,
        Stm {
            pat,
            exp: Exp::If(If {
                cond: Operand::Var(c),
                then_br,
                else_br,
                ret,
            }),
            span,
            attrs: vec![],
        },
    ]
}

/// A value of type `t` that is never read: zero, or an uninitialised
/// array (of length zero in existential dimensions).
fn placeholder(
    t: &Type,
    out: &mut Body,
    names: &mut NameSource,
    span: parad_base::Span,
) -> Operand {
    match t {
        Type::Prim(p) => Operand::Const(Scalar::zero(*p)),
        Type::Array { elem, shape } => {
            let shape: Vec<Operand> = shape
                .iter()
                .map(|d| d.operand().unwrap_or(Operand::i64(0)))
                .collect();
            let v = names.fresh("placeholder");
            out.stms.push(Stm {
                pat: vec![Param::new(v, t.clone())],
                exp: Exp::Basic(BasicOp::Scratch { elem: *elem, shape }),
                span,
                attrs: vec![],
            });
            Operand::Var(v)
        }
        Type::Acc(_) => unreachable!("accumulators are never hoisted"),
    }
}
