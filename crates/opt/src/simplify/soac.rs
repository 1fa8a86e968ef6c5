//! SOACs.
//!
//! - A `map` result that does not depend on the element: a row parameter
//!   returned as is is the array itself (copied where either may be
//!   consumed, since a `map` result is fresh memory), an operand bound
//!   outside the lambda is `replicate(w, o)`. Such results leave the
//!   `map`; a `map` of the identity disappears unless its statements may
//!   fail (an assertion, a bounds check).
//! - `map f (replicate n v)…` (every input a `replicate`), with `f`
//!   made of scalar operations that cannot fail, is `f` applied once and
//!   its results replicated: the lambda's statements run even where
//!   `w = 0`, which is harmless since they cannot fail.
//! - An integer sum of `replicate(n, v)` is `n * v` (wrapping
//!   arithmetic makes that exact); float sums are left alone.

use super::{bound_in, cannot_fail, stm, with_exp, Ctx};
use parad_base::{IntType, PrimType};
use parad_core::consts::is_zero;
use parad_core::*;

/// Whether the rows of result `k` have a shape known outside the lambda:
/// a `map` of width zero takes its row shape from the return type, so a
/// rewrite may only produce arrays of that shape where the type fixes it.
fn row_shape_known(lam: &Lambda, k: usize, inner: &rustc_hash::FxHashSet<VName>) -> bool {
    lam.ret[k].shape().iter().all(|d| match d {
        Dim::Const(_) => true,
        Dim::Var(v) => !inner.contains(v),
        Dim::Ext => false,
    })
}

/// What a map result becomes outside the map.
fn invariant_result(
    ctx: &Ctx,
    m: &Map,
    k: usize,
    p: &Param,
    inner: &rustc_hash::FxHashSet<VName>,
) -> Option<Exp> {
    let res = m.lam.body.result[k];
    if p.ty.is_acc() || !row_shape_known(&m.lam, k, inner) {
        return None;
    }
    if let Some(j) = res
        .var()
        .and_then(|v| m.lam.params.iter().position(|q| q.name == v))
    {
        let arr = m.arrs[j];
        if ctx.may_be_consumed(p.name) || ctx.may_be_consumed(arr) {
            return Some(BasicOp::Copy { arr }.into());
        }
        return Some(Exp::atom(arr));
    }
    if res.var().is_none_or(|v| !inner.contains(&v)) {
        return Some(BasicOp::Replicate { n: m.w, value: res }.into());
    }
    None
}

pub fn map_invariant_results(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let inner = bound_in(&s.exp);
    let mut out = vec![];
    let mut kept = m.clone();
    kept.lam.ret.clear();
    kept.lam.body.result.clear();
    let mut pat = vec![];
    for (k, p) in s.pat.iter().enumerate() {
        let res = m.lam.body.result[k];
        match invariant_result(ctx, m, k, p, &inner) {
            Some(e) => out.push(stm(vec![p.clone()], e, s)),
            None => {
                pat.push(p.clone());
                kept.lam.ret.push(m.lam.ret[k].clone());
                kept.lam.body.result.push(res);
            }
        }
    }
    // The map goes only if its statements cannot fail: the results of
    // `map (\k -> assert (k > 0) k) xs` are the rows of `xs`, but only
    // once the assertions have held.
    if out.is_empty() || (pat.is_empty() && !m.lam.body.stms.iter().all(|st| cannot_fail(&st.exp)))
    {
        return None;
    }
    if !pat.is_empty() {
        let mut rest = with_exp(s, kept.into());
        rest.pat = pat;
        out.push(rest);
    }
    Some(out)
}

pub fn map_replicate(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let inner = bound_in(&s.exp);
    if !m.lam.body.stms.iter().all(|st| cannot_fail(&st.exp))
        || !(0..m.lam.ret.len()).all(|k| row_shape_known(&m.lam, k, &inner))
    {
        return None;
    }
    let mut values = vec![];
    for a in &m.arrs {
        let BasicOp::Replicate { value, .. } = ctx.def(*a)? else {
            return None;
        };
        values.push(*value);
    }
    // The parameters are bound nowhere else: the driver substitutes them
    // in the statements returned.
    for (p, v) in m.lam.params.iter().zip(values) {
        ctx.replace(p.name, v);
    }
    let mut out = m.lam.body.stms.clone();
    for (p, r) in s.pat.iter().zip(&m.lam.body.result) {
        let e = BasicOp::Replicate { n: m.w, value: *r };
        out.push(stm(vec![p.clone()], e.into(), s));
    }
    Some(out)
}

pub fn reduce_replicate(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Reduce(r)) = &s.exp else {
        return None;
    };
    let ([a], [z], [x, y], [add]) = (
        r.arrs.as_slice(),
        r.op.neutral.as_slice(),
        r.op.lam.params.as_slice(),
        r.op.lam.body.stms.as_slice(),
    ) else {
        return None;
    };
    let Exp::Basic(BasicOp::BinOp(BinOp::Add, t @ PrimType::Int(it), p, q)) = add.exp else {
        return None;
    };
    let sum = add.pat.first()?.name;
    let adds_params = (p == Operand::Var(x.name) && q == Operand::Var(y.name))
        || (p == Operand::Var(y.name) && q == Operand::Var(x.name));
    if !adds_params
        || r.op.lam.body.result != [Operand::Var(sum)]
        || !matches!(z, Operand::Const(c) if is_zero(*c))
    {
        return None;
    }
    let BasicOp::Replicate { value, .. } = *ctx.def(*a)? else {
        return None;
    };
    let mut out = vec![];
    let n = if it == IntType::I64 {
        r.w
    } else {
        let c = ctx.fresh("n");
        out.push(stm(
            vec![Param::new(c, Type::Prim(t))],
            BasicOp::Conv(ConvOp::Cast, PrimType::Int(IntType::I64), t, r.w).into(),
            s,
        ));
        Operand::Var(c)
    };
    out.push(with_exp(s, BasicOp::BinOp(BinOp::Mul, t, n, value).into()));
    Some(out)
}

/// `d` made known from `known` where it is existential.
fn refine_dims(t: &Type, known: &[Dim]) -> Option<Type> {
    let Type::Array { elem, shape } = t else {
        return None;
    };
    if shape.len() != known.len() {
        return None;
    }
    let mut changed = false;
    let shape = shape
        .iter()
        .zip(known)
        .map(|(d, k)| match (d, k) {
            (Dim::Ext, Dim::Var(_) | Dim::Const(_)) => {
                changed = true;
                *k
            }
            _ => *d,
        })
        .collect();
    changed.then_some(Type::Array { elem: *elem, shape })
}

/// The dimensions of a `map`'s results that are existential in its
/// pattern but known from the `map` (its width, and the dimensions of its
/// lambda's return types that name nothing bound inside) become known,
/// so that `size` and the size checks on them fold.
///
/// A row dimension is not taken from the types inside the lambda: a
/// `map` of width zero has rows of length zero where its return type
/// leaves it open (in the interpreter), whatever the body would give.
pub fn map_known_sizes(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let inner = bound_in(&s.exp);
    let outer = |d: &Dim| match d {
        Dim::Var(v) if inner.contains(v) => Dim::Ext,
        d => *d,
    };
    let mut new = s.clone();
    let mut changed = false;
    for (k, p) in new.pat.iter_mut().enumerate() {
        let mut all = vec![Dim::from_operand(&m.w)];
        all.extend(m.lam.ret[k].shape().iter().map(outer));
        if let Some(t) = refine_dims(&p.ty, &all) {
            p.ty = t;
            changed = true;
        }
    }
    changed.then(|| vec![new])
}

/// An extra result of a `withacc` function that is bound outside it (or
/// a constant) is that operand: it leaves the `withacc`.
pub fn withacc_invariant_results(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::WithAcc(w)) = &s.exp else {
        return None;
    };
    let accs = w.inputs.len();
    let arrs: usize = w.inputs.iter().map(|i| i.arrs.len()).sum();
    let inner = bound_in(&s.exp);
    let free = |o: &Operand| o.var().is_none_or(|v| !inner.contains(&v));
    let extras = w.lam.body.result.get(accs..)?;
    if s.pat.len() != arrs + extras.len() || !extras.iter().any(free) {
        return None;
    }
    let mut out = vec![];
    let mut kept = w.clone();
    kept.lam.body.result.truncate(accs);
    kept.lam.ret.truncate(accs);
    let mut pat = s.pat[..arrs].to_vec();
    for (k, o) in extras.iter().enumerate() {
        let p = &s.pat[arrs + k];
        if free(o) {
            out.push(stm(vec![p.clone()], Exp::atom(*o), s));
        } else {
            kept.lam.body.result.push(*o);
            kept.lam.ret.push(w.lam.ret[accs + k].clone());
            pat.push(p.clone());
        }
    }
    let mut rest = with_exp(s, kept.into());
    rest.pat = pat;
    out.insert(0, rest);
    Some(out)
}

/// Inputs of a `map` whose parameter the lambda never uses go.
pub fn map_unused_inputs(_: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let mut used = rustc_hash::FxHashSet::default();
    parad_core::free::body_uses(&m.lam.body, &mut |v| {
        used.insert(v);
    });
    for t in &m.lam.ret {
        let mut vs = vec![];
        t.dim_vars(&mut vs);
        used.extend(vs);
    }
    for p in &m.lam.params {
        let mut vs = vec![];
        p.ty.dim_vars(&mut vs);
        used.extend(vs);
    }
    let dead = |p: &Param| !p.ty.is_acc() && !used.contains(&p.name);
    // A map needs an input to have a width to check against; keep one.
    if !m.lam.params.iter().any(dead) || m.lam.params.iter().all(dead) {
        return None;
    }
    let mut kept = m.clone();
    kept.lam.params.clear();
    kept.arrs.clear();
    for (p, a) in m.lam.params.iter().zip(&m.arrs) {
        if !dead(p) {
            kept.lam.params.push(p.clone());
            kept.arrs.push(*a);
        }
    }
    Some(vec![with_exp(s, kept.into())])
}
