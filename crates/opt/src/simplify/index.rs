//! Sizes and indexing.
//!
//! - `size(x, d)` is the `d`th dimension of `x`'s type where that is a
//!   constant or a variable (the interpreter checks the dimensions of
//!   every pattern and parameter when it binds them), or follows from
//!   `x`'s definition (`iota`, `replicate`, `scratch`, `rearrange`, and
//!   a histogram's destination).
//! - `iota(n, s, d)[i]` is `s + i*d` and `replicate(n, v)[i, …]` is
//!   `v[…]`, when `0 <= i < n` is known (the rules would otherwise lose
//!   the bounds check and its error).
//! - `rearrange(p, x)[i…]`, fully indexed, is `x` indexed by the permuted
//!   indices, and `x[i][j…]` is `x[i, j…]`: the same bounds are checked.

use super::{canonical_exp, with_exp, Ctx};
use parad_base::{IntType, PrimType};
use parad_core::*;

/// The `d`th dimension of `v`, if known.
pub fn size_of(ctx: &Ctx, v: VName, d: usize) -> Option<Operand> {
    if let Some(o) = ctx.type_of(v).and_then(|t| t.shape().get(d)?.operand()) {
        return Some(o);
    }
    match ctx.def(v)? {
        BasicOp::Iota { n, .. } if d == 0 => Some(*n),
        BasicOp::Replicate { n, .. } if d == 0 => Some(*n),
        BasicOp::Replicate { value, .. } => size_of(ctx, value.var()?, d - 1),
        BasicOp::Scratch { shape, .. } => shape.get(d).copied(),
        BasicOp::Rearrange { arr, perm } => size_of(ctx, *arr, *perm.get(d)?),
        _ => None,
    }
}

pub fn size_known(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Basic(BasicOp::Size { arr, dim }) = &s.exp else {
        return None;
    };
    let o = size_of(ctx, *arr, *dim).or_else(|| hist_size(ctx, *arr, *dim))?;
    Some(vec![with_exp(s, Exp::atom(o))])
}

/// The `d`th dimension of a histogram's result is its destination's: known,
/// or a `size` of the destination computed earlier in scope (the histogram
/// consumes the destination, so no new `size` of it may follow). Without
/// this, a histogram kept only for its size (AD checks the adjoint's shape
/// against the result's) would never be dead.
fn hist_size(ctx: &Ctx, v: VName, d: usize) -> Option<Operand> {
    let Some(Exp::Soac(Soac::Hist(h))) = ctx.defs.get(&v) else {
        return None;
    };
    let [dest] = h.dests.as_slice() else {
        return None;
    };
    // The destination, or the arrays it copies.
    let mut arr = *dest;
    loop {
        if let Some(o) = size_of(ctx, arr, d) {
            return Some(o);
        }
        let key = canonical_exp(&Exp::Basic(BasicOp::Size { arr, dim: d }));
        if let Some((names, _)) = ctx.avail.get(&key) {
            if let [n] = names.as_slice() {
                return Some(Operand::Var(*n));
            }
        }
        match ctx.def(arr)? {
            BasicOp::Copy { arr: a, .. } => arr = *a,
            BasicOp::Atom(Operand::Var(a)) => arr = *a,
            _ => return None,
        }
    }
}

/// A single index `arr[i]` or the first index of `arr[i, …]`.
fn first_fix(slice: &[DimIndex]) -> Option<Operand> {
    match slice.first()? {
        DimIndex::Fix(i) => Some(*i),
        DimIndex::Slice { .. } => None,
    }
}

pub fn index_iota(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Basic(BasicOp::Index { arr, slice }) = &s.exp else {
        return None;
    };
    let [DimIndex::Fix(i)] = slice.as_slice() else {
        return None;
    };
    let BasicOp::Iota { n, start, step, it } = *ctx.def(*arr)? else {
        return None;
    };
    if !ctx.in_bounds(*i, n) {
        return None;
    }
    let t = PrimType::Int(it);
    let mut out = vec![];
    let i = if it == IntType::I64 {
        *i
    } else {
        let c = ctx.fresh("i");
        out.push(super::stm(
            vec![Param::new(c, Type::Prim(t))],
            BasicOp::Conv(ConvOp::Cast, PrimType::Int(IntType::I64), t, *i).into(),
            s,
        ));
        Operand::Var(c)
    };
    let off = ctx.fresh("off");
    out.push(super::stm(
        vec![Param::new(off, Type::Prim(t))],
        BasicOp::BinOp(BinOp::Mul, t, i, step).into(),
        s,
    ));
    out.push(with_exp(
        s,
        BasicOp::BinOp(BinOp::Add, t, start, Operand::Var(off)).into(),
    ));
    Some(out)
}

pub fn index_replicate(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Basic(BasicOp::Index { arr, slice }) = &s.exp else {
        return None;
    };
    let i = first_fix(slice)?;
    let BasicOp::Replicate { n, value } = *ctx.def(*arr)? else {
        return None;
    };
    if !ctx.in_bounds(i, n) {
        return None;
    }
    // The result would alias `value` rather than fresh memory.
    if s.pat
        .iter()
        .any(|p| p.ty.rank() > 0 && ctx.may_be_consumed(p.name))
    {
        return None;
    }
    let e = match (&slice[1..], value) {
        ([], v) => Exp::atom(v),
        (rest, Operand::Var(v)) => BasicOp::Index {
            arr: v,
            slice: rest.to_vec(),
        }
        .into(),
        _ => return None,
    };
    Some(vec![with_exp(s, e)])
}

pub fn index_rearrange(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Basic(BasicOp::Index { arr, slice }) = &s.exp else {
        return None;
    };
    let BasicOp::Rearrange { arr: x, perm } = ctx.def(*arr)? else {
        return None;
    };
    if slice.len() != perm.len() || !slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
        return None;
    }
    // Dimension `d` of `arr` is dimension `perm[d]` of `x`.
    let mut permuted = slice.clone();
    for (d, &p) in perm.iter().enumerate() {
        *permuted.get_mut(p)? = slice[d];
    }
    let e = BasicOp::Index {
        arr: *x,
        slice: permuted,
    };
    Some(vec![with_exp(s, e.into())])
}

pub fn index_row(ctx: &mut Ctx, s: &Stm) -> Option<Vec<Stm>> {
    let Exp::Basic(BasicOp::Index { arr, slice }) = &s.exp else {
        return None;
    };
    let BasicOp::Index {
        arr: x,
        slice: outer,
    } = ctx.def(*arr)?
    else {
        return None;
    };
    if !outer.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
        return None;
    }
    let mut whole = outer.clone();
    whole.extend_from_slice(slice);
    let e = BasicOp::Index {
        arr: *x,
        slice: whole,
    };
    Some(vec![with_exp(s, e.into())])
}
