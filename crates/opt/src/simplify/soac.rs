//! SOACs.
//!
//! - A `map` result that does not depend on the element: a row parameter
//!   returned as is is the array itself (copied where either may be
//!   consumed, since a `map` result is fresh memory), an operand bound
//!   outside the lambda is `replicate(w, o)`. Such results leave the
//!   `map`; a `map` of the identity disappears.
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

/// What a map result becomes outside the map.
fn invariant_result(
    ctx: &Ctx,
    m: &Map,
    res: Operand,
    p: &Param,
    inner: &rustc_hash::FxHashSet<VName>,
) -> Option<Exp> {
    if let Some(k) = res
        .var()
        .and_then(|v| m.lam.params.iter().position(|q| q.name == v))
    {
        let arr = m.arrs[k];
        if ctx.may_be_consumed(p.name) || ctx.may_be_consumed(arr) {
            return Some(BasicOp::Copy { arr }.into());
        }
        return Some(Exp::atom(arr));
    }
    if res.var().is_none_or(|v| !inner.contains(&v)) {
        return Some(
            BasicOp::Replicate {
                n: m.w,
                value: res,
            }
            .into(),
        );
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
        match invariant_result(ctx, m, res, p, &inner) {
            Some(e) => out.push(stm(vec![p.clone()], e, s)),
            None => {
                pat.push(p.clone());
                kept.lam.ret.push(m.lam.ret[k].clone());
                kept.lam.body.result.push(res);
            }
        }
    }
    if out.is_empty() {
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
    if !m.lam.body.stms.iter().all(|st| cannot_fail(&st.exp)) {
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
