//! Variable occurrences and free variables of IR fragments.

use crate::ir::{Body, DimIndex, Exp, Lambda, LoopForm, Operand, Param, Stm};
use crate::names::VName;
use crate::types::Type;
use rustc_hash::FxHashSet;

/// Calls `f` on every variable occurring in `e`, including occurrences
/// inside nested bodies and in the dimensions of types. Names bound inside
/// `e` are reported too when used; names are unique, so callers filter
/// them with the set of names they care about.
pub fn exp_uses(e: &Exp, f: &mut dyn FnMut(VName)) {
    let op = |o: &Operand, f: &mut dyn FnMut(VName)| {
        if let Operand::Var(v) = o {
            f(*v)
        }
    };
    match e {
        Exp::Atom(a) | Exp::UnOp(_, _, a) | Exp::Conv(_, _, _, a) => op(a, f),
        Exp::BinOp(_, _, a, b) | Exp::Cmp(_, _, a, b) => {
            op(a, f);
            op(b, f)
        }
        Exp::TernOp(_, _, a, b, c) => {
            op(a, f);
            op(b, f);
            op(c, f)
        }
        Exp::Index { arr, slice } => {
            f(*arr);
            slice_uses(slice, f)
        }
        Exp::Update { arr, slice, value } => {
            f(*arr);
            slice_uses(slice, f);
            op(value, f)
        }
        Exp::Reshape { arr, shape } => {
            f(*arr);
            shape.iter().for_each(|o| op(o, f))
        }
        Exp::Flatten { arr }
        | Exp::Rearrange { arr, .. }
        | Exp::Copy { arr }
        | Exp::Reverse { arr }
        | Exp::Size { arr, .. } => f(*arr),
        Exp::Unflatten { arr, n, m } => {
            f(*arr);
            op(n, f);
            op(m, f)
        }
        Exp::Iota { n, start, step, .. } => {
            op(n, f);
            op(start, f);
            op(step, f)
        }
        Exp::Replicate { n, value } => {
            op(n, f);
            op(value, f)
        }
        Exp::Scratch { shape, .. } => shape.iter().for_each(|o| op(o, f)),
        Exp::Concat { arrs } => arrs.iter().for_each(|v| f(*v)),
        Exp::Rotate { arr, amount } => {
            f(*arr);
            op(amount, f)
        }
        Exp::Apply { args, .. } => args.iter().for_each(|o| op(o, f)),
        Exp::If {
            cond,
            then_br,
            else_br,
            ret,
        } => {
            op(cond, f);
            body_uses(then_br, f);
            body_uses(else_br, f);
            ret.iter().for_each(|t| type_uses(t, f))
        }
        Exp::Loop { params, form, body } => {
            for (p, init) in params {
                param_uses(p, f);
                op(init, f)
            }
            if let LoopForm::For { bound, .. } = form {
                op(bound, f)
            }
            body_uses(body, f)
        }
        Exp::Assert { cond, args, .. } => {
            op(cond, f);
            args.iter().for_each(|o| op(o, f))
        }
        Exp::Map { w, lam, arrs } => {
            op(w, f);
            lambda_uses(lam, f);
            arrs.iter().for_each(|v| f(*v))
        }
        Exp::Reduce { w, op: o, arrs, .. } | Exp::Scan { w, op: o, arrs } => {
            op(w, f);
            lambda_uses(&o.lam, f);
            o.neutral.iter().for_each(|n| op(n, f));
            arrs.iter().for_each(|v| f(*v))
        }
        Exp::Hist {
            w,
            dests,
            op: o,
            inds,
            vals,
        } => {
            op(w, f);
            lambda_uses(&o.lam, f);
            o.neutral.iter().for_each(|n| op(n, f));
            dests.iter().chain(inds).chain(vals).for_each(|v| f(*v))
        }
        Exp::Scatter { w, dests } => {
            op(w, f);
            for d in dests {
                f(d.arr);
                d.inds.iter().for_each(|v| f(*v));
                f(d.vals)
            }
        }
        Exp::WithAcc { inputs, lam } => {
            for i in inputs {
                i.ispace.iter().for_each(|o| op(o, f));
                i.arrs.iter().for_each(|v| f(*v));
                if let Some(o) = &i.op {
                    lambda_uses(&o.lam, f);
                    o.neutral.iter().for_each(|n| op(n, f))
                }
            }
            lambda_uses(lam, f)
        }
        Exp::Upd { acc, inds, vals } => {
            f(*acc);
            inds.iter().chain(vals).for_each(|o| op(o, f))
        }
        Exp::Jvp {
            lam,
            primals,
            tangents: extra,
        }
        | Exp::Vjp {
            lam,
            primals,
            adjoints: extra,
        } => {
            lambda_uses(lam, f);
            primals.iter().chain(extra).for_each(|o| op(o, f))
        }
        Exp::WithVjp { lam, adj, args } => {
            lambda_uses(lam, f);
            lambda_uses(adj, f);
            args.iter().for_each(|o| op(o, f))
        }
    }
}

fn slice_uses(slice: &[DimIndex], f: &mut dyn FnMut(VName)) {
    for d in slice {
        match d {
            DimIndex::Fix(o) => o.var().into_iter().for_each(&mut *f),
            DimIndex::Slice { start, len, stride } => [start, len, stride]
                .iter()
                .filter_map(|o| o.var())
                .for_each(&mut *f),
        }
    }
}

fn type_uses(t: &Type, f: &mut dyn FnMut(VName)) {
    let mut vs = vec![];
    t.dim_vars(&mut vs);
    vs.into_iter().for_each(f)
}

fn param_uses(p: &Param, f: &mut dyn FnMut(VName)) {
    type_uses(&p.ty, f)
}

/// Occurrences in a statement: its expression and its pattern's types.
pub fn stm_uses(s: &Stm, f: &mut dyn FnMut(VName)) {
    s.pat.iter().for_each(|p| param_uses(p, f));
    exp_uses(&s.exp, f)
}

pub fn body_uses(b: &Body, f: &mut dyn FnMut(VName)) {
    for s in &b.stms {
        stm_uses(s, f)
    }
    b.result.iter().filter_map(|o| o.var()).for_each(f)
}

pub fn lambda_uses(l: &Lambda, f: &mut dyn FnMut(VName)) {
    l.params.iter().for_each(|p| param_uses(p, f));
    l.ret.iter().for_each(|t| type_uses(t, f));
    body_uses(&l.body, f)
}

/// Calls `f` on every name bound inside `e` (patterns, parameters, loop
/// indices), not counting the statement's own pattern.
pub fn exp_binds(e: &Exp, f: &mut dyn FnMut(VName)) {
    let body = |b: &Body, f: &mut dyn FnMut(VName)| body_binds(b, f);
    let lam = |l: &Lambda, f: &mut dyn FnMut(VName)| {
        l.params.iter().for_each(|p| f(p.name));
        body_binds(&l.body, f)
    };
    match e {
        Exp::If {
            then_br, else_br, ..
        } => {
            body(then_br, f);
            body(else_br, f)
        }
        Exp::Loop {
            params,
            form,
            body: b,
        } => {
            params.iter().for_each(|(p, _)| f(p.name));
            if let LoopForm::For { i, .. } = form {
                f(*i)
            }
            body(b, f)
        }
        Exp::Map { lam: l, .. } => lam(l, f),
        Exp::Reduce { op, .. } | Exp::Scan { op, .. } | Exp::Hist { op, .. } => lam(&op.lam, f),
        Exp::WithAcc { inputs, lam: l } => {
            for i in inputs {
                if let Some(o) = &i.op {
                    lam(&o.lam, f)
                }
            }
            lam(l, f)
        }
        Exp::Jvp { lam: l, .. } | Exp::Vjp { lam: l, .. } => lam(l, f),
        Exp::WithVjp { lam: l, adj, .. } => {
            lam(l, f);
            lam(adj, f)
        }
        _ => {}
    }
}

pub fn body_binds(b: &Body, f: &mut dyn FnMut(VName)) {
    for s in &b.stms {
        s.pat.iter().for_each(|p| f(p.name));
        exp_binds(&s.exp, f)
    }
}

/// Variables used in `b` but bound outside it.
pub fn free_in_body(b: &Body) -> FxHashSet<VName> {
    let mut used = FxHashSet::default();
    body_uses(b, &mut |v| {
        used.insert(v);
    });
    body_binds(b, &mut |v| {
        used.remove(&v);
    });
    used
}

/// Variables used in `l` but bound outside it.
pub fn free_in_lambda(l: &Lambda) -> FxHashSet<VName> {
    let mut used = FxHashSet::default();
    lambda_uses(l, &mut |v| {
        used.insert(v);
    });
    l.params.iter().for_each(|p| {
        used.remove(&p.name);
    });
    body_binds(&l.body, &mut |v| {
        used.remove(&v);
    });
    used
}

/// Variables used in `e` but bound outside it.
pub fn free_in_exp(e: &Exp) -> FxHashSet<VName> {
    let mut used = FxHashSet::default();
    exp_uses(e, &mut |v| {
        used.insert(v);
    });
    exp_binds(e, &mut |v| {
        used.remove(&v);
    });
    used
}
