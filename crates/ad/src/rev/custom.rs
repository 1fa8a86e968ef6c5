//! `with_vjp f f' x` (custom adjoints): the forward sweep computes `f x`
//! as usual; the return sweep adds `f' (f x) ȳ` to `x̄` instead of
//! differentiating `f`. Free variables of `f` get no adjoint (as in
//! Futhark: they must be passed as part of `x`).

use super::adjenv::Rev;
use super::build::apply_lambda;
use parad_core::rename::Renamer;
use parad_core::*;

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) {
    let Exp::Ad(AdOp::WithVjp(WithVjp { adj, args, .. })) = &s.exp else {
        unreachable!()
    };
    if !args.iter().any(|&a| r.wants_op(b, a)) {
        return;
    }
    // The adjoint function reads the current copies of its free variables.
    let adj = Renamer {
        ctx: b.ctx,
        subst: &mut r.subst,
    }
    .lambda(adj);
    let mut ins: Vec<Operand> = s.pat.iter().map(|p| r.p(p.name).into()).collect();
    for p in &s.pat {
        ins.push(r.adj_val(b, p.name));
    }
    let contribs = apply_lambda(b, &adj, &ins);
    for (&a, c) in args.iter().zip(contribs) {
        r.add_op(b, a, c);
    }
}
