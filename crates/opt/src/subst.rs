//! Renaming of variable uses (not bindings) throughout an expression,
//! including nested bodies and the dimensions of types.

use parad_core::{Body, Dim, DimIndex, Exp, Lambda, LoopForm, Operand, Type, VName};
use rustc_hash::FxHashMap;

pub type Subst = FxHashMap<VName, VName>;

fn name(v: &mut VName, s: &Subst) {
    if let Some(n) = s.get(v) {
        *v = *n;
    }
}

fn op(o: &mut Operand, s: &Subst) {
    if let Operand::Var(v) = o {
        name(v, s)
    }
}

pub fn ty(t: &mut Type, s: &Subst) {
    let dims = |ds: &mut Vec<Dim>| {
        for d in ds {
            if let Dim::Var(v) = d {
                name(v, s)
            }
        }
    };
    match t {
        Type::Prim(_) => {}
        Type::Array { shape, .. } => dims(shape),
        Type::Acc(a) => {
            dims(&mut a.ispace);
            a.elems.iter_mut().for_each(|t| ty(t, s))
        }
    }
}

pub fn body(b: &mut Body, s: &Subst) {
    for st in &mut b.stms {
        st.pat.iter_mut().for_each(|p| ty(&mut p.ty, s));
        exp(&mut st.exp, s);
    }
    b.result.iter_mut().for_each(|o| op(o, s));
}

fn lambda(l: &mut Lambda, s: &Subst) {
    l.params.iter_mut().for_each(|p| ty(&mut p.ty, s));
    l.ret.iter_mut().for_each(|t| ty(t, s));
    body(&mut l.body, s)
}

fn slice(sl: &mut [DimIndex], s: &Subst) {
    for d in sl {
        match d {
            DimIndex::Fix(o) => op(o, s),
            DimIndex::Slice { start, len, stride } => {
                op(start, s);
                op(len, s);
                op(stride, s)
            }
        }
    }
}

/// Renames every use in `e` by `s`.
pub fn exp(e: &mut Exp, s: &Subst) {
    match e {
        Exp::Atom(a) | Exp::UnOp(_, _, a) | Exp::Conv(_, _, _, a) => op(a, s),
        Exp::BinOp(_, _, a, b) | Exp::Cmp(_, _, a, b) => {
            op(a, s);
            op(b, s)
        }
        Exp::TernOp(_, _, a, b, c) => {
            op(a, s);
            op(b, s);
            op(c, s)
        }
        Exp::Index { arr, slice: sl } => {
            name(arr, s);
            slice(sl, s)
        }
        Exp::Update {
            arr,
            slice: sl,
            value,
        } => {
            name(arr, s);
            slice(sl, s);
            op(value, s)
        }
        Exp::Reshape { arr, shape } => {
            name(arr, s);
            shape.iter_mut().for_each(|o| op(o, s))
        }
        Exp::Flatten { arr }
        | Exp::Rearrange { arr, .. }
        | Exp::Copy { arr }
        | Exp::Reverse { arr }
        | Exp::Size { arr, .. } => name(arr, s),
        Exp::Unflatten { arr, n, m } => {
            name(arr, s);
            op(n, s);
            op(m, s)
        }
        Exp::Iota { n, start, step, .. } => {
            op(n, s);
            op(start, s);
            op(step, s)
        }
        Exp::Replicate { n, value } => {
            op(n, s);
            op(value, s)
        }
        Exp::Scratch { shape, .. } => shape.iter_mut().for_each(|o| op(o, s)),
        Exp::Concat { arrs } => arrs.iter_mut().for_each(|v| name(v, s)),
        Exp::Rotate { arr, amount } => {
            name(arr, s);
            op(amount, s)
        }
        Exp::Apply { args, .. } => args.iter_mut().for_each(|o| op(o, s)),
        Exp::If {
            cond,
            then_br,
            else_br,
            ret,
        } => {
            op(cond, s);
            body(then_br, s);
            body(else_br, s);
            ret.iter_mut().for_each(|t| ty(t, s))
        }
        Exp::Loop {
            params,
            form,
            body: b,
        } => {
            for (p, init) in params {
                ty(&mut p.ty, s);
                op(init, s)
            }
            if let LoopForm::For { bound, .. } = form {
                op(bound, s)
            }
            body(b, s)
        }
        Exp::Assert { cond, args, .. } => {
            op(cond, s);
            args.iter_mut().for_each(|o| op(o, s))
        }
        Exp::Map { w, lam, arrs } => {
            op(w, s);
            lambda(lam, s);
            arrs.iter_mut().for_each(|v| name(v, s))
        }
        Exp::Reduce { w, op: o, arrs, .. } | Exp::Scan { w, op: o, arrs } => {
            op(w, s);
            lambda(&mut o.lam, s);
            o.neutral.iter_mut().for_each(|n| op(n, s));
            arrs.iter_mut().for_each(|v| name(v, s))
        }
        Exp::Hist {
            w,
            dests,
            op: o,
            inds,
            vals,
        } => {
            op(w, s);
            lambda(&mut o.lam, s);
            o.neutral.iter_mut().for_each(|n| op(n, s));
            dests
                .iter_mut()
                .chain(inds.iter_mut())
                .chain(vals.iter_mut())
                .for_each(|v| name(v, s))
        }
        Exp::Scatter { w, dests } => {
            op(w, s);
            for d in dests {
                name(&mut d.arr, s);
                d.inds.iter_mut().for_each(|v| name(v, s));
                name(&mut d.vals, s)
            }
        }
        Exp::WithAcc { inputs, lam } => {
            for i in inputs {
                i.ispace.iter_mut().for_each(|o| op(o, s));
                i.arrs.iter_mut().for_each(|v| name(v, s));
                if let Some(o) = &mut i.op {
                    lambda(&mut o.lam, s);
                    o.neutral.iter_mut().for_each(|n| op(n, s))
                }
            }
            lambda(lam, s)
        }
        Exp::Upd { acc, inds, vals } => {
            name(acc, s);
            inds.iter_mut()
                .chain(vals.iter_mut())
                .for_each(|o| op(o, s))
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
            lambda(lam, s);
            primals
                .iter_mut()
                .chain(extra.iter_mut())
                .for_each(|o| op(o, s))
        }
        Exp::WithVjp { lam, adj, args } => {
            lambda(lam, s);
            lambda(adj, s);
            args.iter_mut().for_each(|o| op(o, s))
        }
    }
}
