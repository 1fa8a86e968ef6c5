//! AD-specific rewrites after AD: accumulator updates become reductions
//! (seed 001 §6.1), and what redundant execution leaves dead goes.
//!
//! # The rewrite
//!
//! Reverse AD of `map` turns the adjoint of a free array into an
//! accumulator updated once per iteration. Where an update `upd(acc, idx,
//! v)` sits in a map nest and `idx` does not depend on one of the maps,
//! every iteration of that map adds into the same element; summing the
//! values with the accumulator's operator first and updating once gives
//! the same accumulator:
//!
//! ```text
//! map o (… acc) (\… a -> S; map c (… a) (\… a' -> T; upd(a', idx, v)))
//!   ==>
//! S; map c (… acc) (\… a' -> let vs = map o (…) (\… -> T; v)
//!                             let s  = reduce op ne vs
//!                             in upd(a', idx, s))
//! ```
//!
//! The invariant dimension `o` moves innermost, its arrays that feed the
//! inner map are transposed (`rearrange`, folded with a rearrange that
//! made them), and the values are computed inside the reduction: for
//! matmul's adjoints the result is two matmul-shaped `map (map (reduce
//! (+) 0 (map …)))` nests. Where the update is deeper, `o` first moves
//! down through up to [`MAX_DEPTH`] maps by interchange ([`sink`]).
//!
//! Enabling rewrites, in rounds ([`acc_red_program`]):
//! - a map threading an accumulator and returning other values is split
//!   (seed 001 §6.1 (a)/(b)): one map keeps the update and the statements
//!   it needs, the other the rest and every assertion; the split is kept
//!   only where the reduction then applies;
//! - maps producing the values (and replicated inputs) fuse into the map
//!   that updates with them, so that the value is computed where it is
//!   added ([`fuse_into_upd_maps`]);
//! - statements of a `withacc` lambda that no accumulator reaches move
//!   before it ([`hoist_from_withaccs`]);
//! - an updating nest that reads the rows of a transposed array
//!   interchanges so the transpose cancels and the array's producer can
//!   fuse in ([`cancel_transpose`]);
//! - last, a `withacc` whose accumulator starts as the neutral element
//!   and is updated once per element by a nest of maps over iotas of its
//!   index space becomes that nest of maps, returning `op(ne, v)` (or
//!   `v` where that is the same bits) ([`withaccs_to_maps`]): matmul's
//!   adjoints end as plain `map (map (reduce …))` nests;
//! - sizes of map results, rows and rearranges are traced to the inputs
//!   ([`size_of_map`]), assertions repeating one of the function's top
//!   level go ([`drop_repeated_asserts`]), and unread map results go
//!   (the simplifier's DCE, [`dce_fun`]); CSE and DCE run between.
//!
//! # Soundness
//!
//! - The operator is the `withacc` input's (an accumulator without an
//!   operator overwrites and is never rewritten), on scalar elements.
//!   `withacc` operators are associative and commutative with the given
//!   neutral element (the IR's contract), so the order and grouping of
//!   the additions does not matter, and an update with the neutral
//!   element changes nothing. For the same reason maps that thread an
//!   accumulator interchange freely: their iterations are independent
//!   but for updates that commute.
//! - `idx` is made only of constants, variables bound outside the outer
//!   map, and parameters of the inner map bound to arrays that do not
//!   depend on the outer map. The inner map's width does not depend on
//!   the outer map either.
//! - The accumulator is used only through the inner map: the outer map
//!   passes it only there; for the reduction the inner lambda uses it
//!   only in its last statement, the `upd`, whose result it returns, and
//!   nothing else in either lambda reads an accumulator.
//! - The outer lambda's other statements `S` do not depend on its
//!   parameters and cannot fail (sizes, iotas, replicates, rearranges,
//!   arithmetic without division, branches of those); they move before
//!   the nest. A split copies only basic statements into both halves.
//! - Nothing that may consume an array (in-place updates, scatter, hist,
//!   loops, calls, withacc) is moved into another map or fused into.
//! - An update at an out-of-bounds index is ignored, so when the outer map
//!   is empty the new updates (of neutral elements) change nothing.
//! - Sizes are traced only through what fixes them: a map's width, a
//!   row's array, a rearrange's source; a size of an inner dimension of a
//!   map's result (which is 0 when the map is empty, the interpreter's
//!   and backend's rule) becomes `if 0 < w then … else 0`.
//!
//! Limits: when several run-time checks would fail, which one is reported
//! first may change (a split runs the part with the assertions first;
//! statements leave a `withacc` lambda ahead of the accumulator part).
//! An index array moved out of a nest is replaced by an `iota` of its
//! map's width (the two agreed wherever the nest ran). The split does not
//! yet weigh the seed's "fewer than two redundant global accesses"; it
//! never copies more than basic statements. GMM's per-cluster matrices
//! are not rewritten: their adjoint is a per-point `[k][d][d]` array
//! added in a 3-D updating nest under the map over points, whose
//! producer is a `withacc` rather than a map nest.
//!
//! # Dead forward sweeps
//!
//! Redundant execution (DESIGN §4) re-runs a scope's forward statements
//! before its return sweep; in a perfect nest of maps the copies at every
//! level but the innermost are dead, except that AD's size checks read the
//! sizes of the primal result. [`size_of_map`] answers those from the
//! inputs, after which DCE removes the forward sweep.

use crate::cse;
use crate::simplify::dce_fun;
use parad_base::{IntType, PrimType, Scalar};
use parad_core::builder::Ctx;
use parad_core::free::{free_in_body, free_in_exp, stm_uses};
use parad_core::ops::CmpOp;
use parad_core::rename::Renamer;
use parad_core::subst::{self, Subst};
use parad_core::types::Dim;
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Runs the rewrites of this module on every function, then DCE.
pub fn acc_red_program(prog: &mut Program) {
    let mut ctx = Ctx::for_program(prog);
    for f in &mut prog.funs {
        // Each round lets the next see through what the last one fused,
        // split or interchanged (the adjoint of matmul's second argument
        // needs four).
        for _ in 0..ROUNDS {
            size_of_map(&mut f.body, &mut ctx);
            cse::cse_fun(f);
            drop_repeated_asserts(&mut f.body);
            dce_fun(f);
            hoist_from_withaccs(&mut f.body);
            fuse_into_upd_maps(&mut f.body, &mut ctx);
            dce_fun(f);
            let ops = acc_ops(&f.body);
            accs_to_reductions(&mut f.body, &mut ctx, &ops);
            // What a split left in a withacc moves out before the next
            // round reads sizes through it.
            hoist_from_withaccs(&mut f.body);
            dce_fun(f);
        }
        withaccs_to_maps(&mut f.body, &mut ctx);
        dce_fun(f);
    }
    prog.names = ctx.names;
}

/// Rounds of the rewrites in [`acc_red_program`].
const ROUNDS: usize = 5;

// ---------------------------------------------------------------------
// Repeated assertions and withacc bodies

/// Removes an assertion of a condition that a statement of the function's
/// top level asserted before (CSE makes equal conditions one variable);
/// such an assertion cannot fail.
pub fn drop_repeated_asserts(body: &mut Body) {
    let mut asserted: FxHashSet<VName> = FxHashSet::default();
    let stms = std::mem::take(&mut body.stms);
    for mut s in stms {
        if let Exp::Basic(BasicOp::Assert { cond, .. }) = &s.exp {
            match cond {
                Operand::Var(c) if !asserted.insert(*c) => continue,
                Operand::Const(Scalar::Bool(true)) => continue,
                _ => {}
            }
        }
        visit::each_body_mut(&mut s.exp, |b| {
            walk::rewrite_stms(b, &mut |st, out| {
                let repeated = matches!(&st.exp,
                    Exp::Basic(BasicOp::Assert { cond: Operand::Var(c), .. }) if asserted.contains(c));
                if !repeated {
                    out.push(st)
                }
            })
        });
        body.stms.push(s);
    }
}

/// Moves the statements of a `withacc` lambda that no accumulator
/// reaches before the `withacc` (the lambda runs once, so they still run
/// once), and replaces extra results that are then bound outside by
/// those names. This leaves the `withacc` with only the accumulator part
/// and makes the rest visible to fusion.
pub fn hoist_from_withaccs(body: &mut Body) {
    let mut renames = Subst::default();
    walk::rewrite_stms(body, &mut |mut s, out| {
        if let Exp::Soac(Soac::WithAcc(w)) = &mut s.exp {
            let mut inside: FxHashSet<VName> = w.lam.params.iter().map(|p| p.name).collect();
            for st in std::mem::take(&mut w.lam.body.stms) {
                let reached = free_in_exp(&st.exp).iter().any(|v| inside.contains(v))
                    || st.pat.iter().any(|p| p.ty.is_acc());
                if reached {
                    st.pat.iter().for_each(|p| {
                        inside.insert(p.name);
                    });
                    w.lam.body.stms.push(st);
                } else {
                    out.push(st);
                }
            }
            drop_outside_extras(&mut s, &inside, &mut renames);
        }
        out.push(s)
    });
    if !renames.is_empty() {
        subst::body(body, &renames);
    }
}

/// Removes the extra results of a `withacc` statement that name variables
/// bound outside its lambda, recording their pattern names' renaming.
fn drop_outside_extras(s: &mut Stm, inside: &FxHashSet<VName>, renames: &mut Subst) {
    let Exp::Soac(Soac::WithAcc(w)) = &mut s.exp else {
        return;
    };
    let n_accs = w.inputs.len();
    let n_arrs: usize = w.inputs.iter().map(|i| i.arrs.len()).sum();
    let mut keep_res = vec![true; w.lam.body.result.len()];
    let mut keep_pat = vec![true; s.pat.len()];
    for (e, r) in w.lam.body.result.iter().enumerate().skip(n_accs) {
        let Operand::Var(v) = r else { continue };
        let pe = n_arrs + (e - n_accs);
        if inside.contains(v) || pe >= s.pat.len() {
            continue;
        }
        renames.set(s.pat[pe].name, renames.get(*v));
        keep_res[e] = false;
        keep_pat[pe] = false;
    }
    retain_by(&mut w.lam.body.result, &keep_res);
    retain_by(&mut w.lam.ret, &keep_res);
    retain_by(&mut s.pat, &keep_pat);
}

// ---------------------------------------------------------------------
// Sizes of map results

/// Replaces `size(m, d)` of a map's result `m` by the map's width (`d =
/// 0`) or by the size of the lambda's inputs (`d > 0`) where the lambda
/// result's size can be traced to a variable bound outside the map. Empty
/// maps make rows of size 0 (the interpreter's and backend's rule for
/// unknown inner sizes), so `d > 0` gives `if 0 < w then … else 0`.
pub fn size_of_map(body: &mut Body, ctx: &mut Ctx) {
    let mut defs = SizeDefs::default();
    walk::body_stms(body, |s| record_size_defs(s, &mut defs));
    // Widths that are variables replace the size's name everywhere, so
    // that later rewrites see equal widths as equal.
    let mut renames = Subst::default();
    walk::rewrite_stms(body, &mut |s, out| {
        let mut s = s;
        if let Exp::Basic(BasicOp::Size { arr, dim }) = &mut s.exp {
            // A row's size is its array's, a rearranged array's that of
            // the dimension it came from.
            for _ in 0..8 {
                // (Not into a map's result: its inner sizes are guarded,
                // and a fusion may still make the row's size plain.)
                if let Some(a) = defs.rows.get(arr).filter(|a| !defs.maps.contains_key(a)) {
                    (*arr, *dim) = (*a, *dim + 1);
                } else if let Some((a, perm)) = defs.rearranges.get(arr) {
                    match perm.get(*dim) {
                        Some(d) => (*arr, *dim) = (*a, *d),
                        None => break,
                    }
                } else {
                    break;
                }
            }
        }
        if let Exp::Basic(BasicOp::Size { arr, dim }) = &s.exp {
            if let Some((w, inside, r)) = defs.maps.get(arr) {
                if let (0, Operand::Var(w)) = (*dim, w) {
                    let w = renames.get(*w);
                    renames.set(s.pat[0].name, w);
                    return;
                }
                if *dim == 0 {
                    let mut s = s;
                    s.exp = Exp::atom(*w);
                    out.push(s);
                    return;
                }
                let mut guards = vec![OuterSize::Operand(*w)];
                let traced = r
                    .var()
                    .and_then(|r| trace_size(&defs, inside, r, dim - 1, &mut guards, 8));
                if let Some(inner) = traced {
                    out.extend(guarded_size(ctx, s, &guards, inner));
                    return;
                }
            }
        }
        out.push(s)
    });
    if !renames.is_empty() {
        subst::body(body, &renames);
    }
}

/// What binds the variables that sizes can be traced through.
#[derive(Default)]
struct SizeDefs {
    /// Map results: the width, the names the map binds inside, and the
    /// lambda's result.
    maps: FxHashMap<VName, (Operand, std::rc::Rc<FxHashSet<VName>>, Operand)>,
    /// Map parameters bound to the rows of an array.
    rows: FxHashMap<VName, VName>,
    rearranges: FxHashMap<VName, (VName, Vec<usize>)>,
    sizes: FxHashMap<VName, (VName, usize)>,
}

fn record_size_defs(s: &Stm, defs: &mut SizeDefs) {
    match &s.exp {
        Exp::Soac(Soac::Map(m)) => {
            let mut inside = FxHashSet::default();
            free::body_binds(&m.lam.body, &mut |v| {
                inside.insert(v);
            });
            for (p, a) in m.lam.params.iter().zip(&m.arrs) {
                inside.insert(p.name);
                if !p.ty.is_acc() {
                    defs.rows.insert(p.name, *a);
                }
            }
            let inside = std::rc::Rc::new(inside);
            for (pe, r) in s.pat.iter().zip(&m.lam.body.result) {
                if !pe.ty.is_acc() {
                    defs.maps.insert(pe.name, (m.w, inside.clone(), *r));
                }
            }
        }
        Exp::Basic(BasicOp::Rearrange { arr, perm }) => {
            defs.rearranges.insert(s.pat[0].name, (*arr, perm.clone()));
        }
        Exp::Basic(BasicOp::Size { arr, dim }) => {
            defs.sizes.insert(s.pat[0].name, (*arr, *dim));
        }
        _ => {}
    }
}

/// A size known before a map: an operand or `size(arr, dim)`.
#[derive(Clone, Copy)]
enum OuterSize {
    Operand(Operand),
    Of(VName, usize),
}

/// `size(v, d)` for `v` bound inside a map (`inside`: the names the map
/// binds) as `size(arr, dim)` with `arr` bound before the map, following
/// rows, rearranges and inner maps' widths and results, for `fuel` steps.
/// Passing through an inner map's result to its rows is valid only where
/// that map is not empty: its width joins `guards`.
fn trace_size(
    defs: &SizeDefs,
    inside: &FxHashSet<VName>,
    v: VName,
    d: usize,
    guards: &mut Vec<OuterSize>,
    fuel: u32,
) -> Option<OuterSize> {
    if !inside.contains(&v) {
        return Some(OuterSize::Of(v, d));
    }
    let fuel = fuel.checked_sub(1)?;
    if let Some(a) = defs.rows.get(&v) {
        return trace_size(defs, inside, *a, d + 1, guards, fuel);
    }
    if let Some((a, perm)) = defs.rearranges.get(&v) {
        return trace_size(defs, inside, *a, *perm.get(d)?, guards, fuel);
    }
    let (w, _, r) = defs.maps.get(&v)?;
    let w = trace_scalar(defs, inside, *w, guards, fuel)?;
    if d == 0 {
        return Some(w);
    }
    guards.push(w);
    trace_size(defs, inside, r.var()?, d - 1, guards, fuel)
}

/// A width used inside a map as a size known before it.
fn trace_scalar(
    defs: &SizeDefs,
    inside: &FxHashSet<VName>,
    w: Operand,
    guards: &mut Vec<OuterSize>,
    fuel: u32,
) -> Option<OuterSize> {
    match w {
        Operand::Var(n) if inside.contains(&n) => {
            let (a, k) = defs.sizes.get(&n)?;
            trace_size(defs, inside, *a, *k, guards, fuel)
        }
        _ => Some(OuterSize::Operand(w)),
    }
}

/// `let n = if 0 < min(guards) then size(arr, dim) else 0`, `n` being
/// `s`'s pattern (the plain size where every guard is a positive
/// constant).
fn guarded_size(ctx: &mut Ctx, s: Stm, guards: &[OuterSize], value: OuterSize) -> Vec<Stm> {
    let size = match value {
        OuterSize::Of(arr, dim) => Exp::Basic(BasicOp::Size { arr, dim }),
        OuterSize::Operand(o) => Exp::atom(o),
    };
    let i64t = PrimType::Int(IntType::I64);
    let mut out = vec![];
    let fresh = |ctx: &mut Ctx, base: &str, ty: Type, exp: Exp, out: &mut Vec<Stm>| {
        let v = ctx.names.fresh(base);
        ctx.types.insert(v, ty.clone());
        out.push(Stm::new(vec![Param::new(v, ty)], exp, s.span));
        Operand::Var(v)
    };
    let mut least: Option<Operand> = None;
    for g in guards {
        let g = match *g {
            OuterSize::Operand(Operand::Const(Scalar::I64(n))) if n > 0 => continue,
            OuterSize::Operand(o) => o,
            OuterSize::Of(a, k) => {
                let e = Exp::Basic(BasicOp::Size { arr: a, dim: k });
                fresh(ctx, "n", types::I64, e, &mut out)
            }
        };
        least = Some(match least {
            None => g,
            Some(l) => fresh(
                ctx,
                "n",
                types::I64,
                BasicOp::BinOp(BinOp::Min, i64t, l, g).into(),
                &mut out,
            ),
        });
    }
    let Some(least) = least else {
        out.push(Stm { exp: size, ..s });
        return out;
    };
    let cond = BasicOp::Cmp(CmpOp::Lt, i64t, Operand::i64(0), least).into();
    let c = fresh(ctx, "nonempty", types::BOOL, cond, &mut out);
    let n = ctx.names.fresh("n");
    ctx.types.insert(n, types::I64);
    let then_br = Body::new(
        vec![Stm::new(vec![Param::new(n, types::I64)], size, s.span)],
        vec![Operand::Var(n)],
    );
    let iff = If {
        cond: c,
        then_br,
        else_br: Body::new(vec![], vec![Operand::i64(0)]),
        ret: vec![types::I64],
    };
    out.push(Stm {
        exp: iff.into(),
        ..s
    });
    out
}

fn retain_by<T>(xs: &mut Vec<T>, keep: &[bool]) {
    let mut k = keep.iter();
    xs.retain(|_| *k.next().unwrap_or(&true));
}

// ---------------------------------------------------------------------
// Fusing value producers into updating maps

/// Whether `m`'s lambda updates an accumulator.
fn is_upd_map(m: &Map) -> bool {
    m.lam.params.iter().any(|p| p.ty.is_acc())
}

/// Moves the computation of an updating map's inputs into its lambda:
/// a `replicate(w, v)` input becomes `v`, and the row of a map of the same
/// width becomes a copy of that map's lambda body (its inputs become the
/// updating map's). Only inputs read nowhere else are fused, so nothing
/// is computed twice (the producer loses that result).
pub fn fuse_into_upd_maps(body: &mut Body, ctx: &mut Ctx) {
    let mut uses: FxHashMap<VName, u32> = FxHashMap::default();
    body_uses_deep(body, &mut |v| *uses.entry(v).or_insert(0) += 1);
    walk::rewrite_stms(body, &mut |mut s, out| {
        if let Exp::Soac(Soac::Map(m)) = &mut s.exp {
            if is_upd_map(m) && !may_consume(&m.lam.body) {
                while fuse_one_input(m, out, &mut uses, ctx) {}
            }
        }
        out.push(s)
    });
}

/// Makes `q` stand for `value` in `body`: renamed where `value` is a
/// variable, else bound by a statement pushed onto `prelude`.
fn bind_param(
    body: &mut Body,
    q: &Param,
    value: Operand,
    span: parad_base::Span,
    prelude: &mut Vec<Stm>,
) {
    match value {
        Operand::Var(v) => {
            let mut sub = Subst::default();
            sub.set(q.name, v);
            subst::body(body, &sub);
        }
        Operand::Const(_) => prelude.push(Stm::new(vec![q.clone()], Exp::atom(value), span)),
    }
}

fn body_uses_deep(b: &Body, f: &mut dyn FnMut(VName)) {
    for s in &b.stms {
        stm_uses(s, f);
    }
    b.result.iter().filter_map(|o| o.var()).for_each(f);
}

/// Fuses the producer of one input of `m` found among `before`; whether
/// one was fused.
fn fuse_one_input(
    m: &mut Map,
    before: &[Stm],
    uses: &mut FxHashMap<VName, u32>,
    ctx: &mut Ctx,
) -> bool {
    let arr_params: Vec<usize> = (0..m.lam.params.len())
        .filter(|&i| !m.lam.params[i].ty.is_acc())
        .collect();
    for i in arr_params {
        let x = m.arrs[i];
        let Some(prod) = before
            .iter()
            .rev()
            .find(|s| s.pat.iter().any(|p| p.name == x))
        else {
            continue;
        };
        let q = m.lam.params[i].clone();
        let mut prelude = match &prod.exp {
            Exp::Basic(BasicOp::Replicate { n, value }) if *n == m.w => {
                let mut prelude = vec![];
                bind_param(&mut m.lam.body, &q, *value, prod.span, &mut prelude);
                prelude
            }
            Exp::Soac(Soac::Map(p))
                if p.w == m.w
                    && uses.get(&x).copied() == Some(1)
                    && !p.lam.params.iter().any(|p| p.ty.is_acc()) =>
            {
                let j = prod.pat.iter().position(|p| p.name == x).unwrap_or(0);
                let mut subst = Subst::default();
                let lam = Renamer {
                    ctx,
                    subst: &mut subst,
                }
                .lambda(&p.lam);
                let mut stms = lam.body.stms;
                bind_param(
                    &mut m.lam.body,
                    &q,
                    lam.body.result[j],
                    prod.span,
                    &mut stms,
                );
                m.lam.params.remove(i);
                m.arrs.remove(i);
                m.lam.params.splice(0..0, lam.params);
                m.arrs.splice(0..0, p.arrs.iter().copied());
                // The producer's inputs are now read twice.
                p.arrs
                    .iter()
                    .for_each(|a| *uses.entry(*a).or_insert(0) += 1);
                stms.append(&mut m.lam.body.stms);
                m.lam.body.stms = stms;
                return true;
            }
            _ => continue,
        };
        m.lam.params.remove(i);
        m.arrs.remove(i);
        prelude.append(&mut m.lam.body.stms);
        m.lam.body.stms = prelude;
        return true;
    }
    false
}

// ---------------------------------------------------------------------
// Accumulator updates to reductions

/// The operator of every accumulator variable: `withacc` lambda
/// parameters, map parameters and results threading them, `upd` results.
fn acc_ops(body: &Body) -> FxHashMap<VName, AccOp> {
    let mut ops: FxHashMap<VName, AccOp> = FxHashMap::default();
    walk::body_stms(body, |s| match &s.exp {
        Exp::Soac(Soac::WithAcc(w)) => {
            for (inp, p) in w.inputs.iter().zip(&w.lam.params) {
                if let Some(op) = &inp.op {
                    ops.insert(p.name, op.clone());
                }
            }
        }
        Exp::Soac(Soac::Map(m)) => {
            let acc_ins: Vec<VName> = m
                .lam
                .params
                .iter()
                .zip(&m.arrs)
                .filter(|(p, _)| p.ty.is_acc())
                .map(|(p, a)| {
                    if let Some(op) = ops.get(a).cloned() {
                        ops.insert(p.name, op);
                    }
                    *a
                })
                .collect();
            let acc_outs = s.pat.iter().filter(|p| p.ty.is_acc());
            for (a, pe) in acc_ins.iter().zip(acc_outs) {
                if let Some(op) = ops.get(a).cloned() {
                    ops.insert(pe.name, op);
                }
            }
        }
        Exp::Basic(BasicOp::Upd { acc, .. }) => {
            if let (Some(op), Some(pe)) = (ops.get(acc).cloned(), s.pat.first()) {
                ops.insert(pe.name, op);
            }
        }
        _ => {}
    });
    ops
}

/// Everything [`reduce_nest`] needs besides the statement.
struct Env<'a> {
    ctx: &'a mut Ctx,
    ops: FxHashMap<VName, AccOp>,
    rearranges: FxHashMap<VName, (VName, Vec<usize>)>,
    /// The length of every `iota(n, 0, 1)`.
    iotas: FxHashMap<VName, Operand>,
}

/// Rewrites every map nest where an accumulator update's index does not
/// depend on the outer map (module doc), splitting off the part of the
/// outer map that does not update the accumulator first where needed.
pub fn accs_to_reductions(body: &mut Body, ctx: &mut Ctx, ops: &FxHashMap<VName, AccOp>) {
    let mut rearranges = FxHashMap::default();
    let mut iotas = FxHashMap::default();
    walk::body_stms(body, |s| match &s.exp {
        Exp::Basic(BasicOp::Rearrange { arr, perm }) => {
            rearranges.insert(s.pat[0].name, (*arr, perm.clone()));
        }
        Exp::Basic(BasicOp::Iota {
            n,
            start: Operand::Const(Scalar::I64(0)),
            step: Operand::Const(Scalar::I64(1)),
            it: IntType::I64,
        }) => {
            iotas.insert(s.pat[0].name, *n);
        }
        _ => {}
    });
    let mut env = Env {
        ctx,
        ops: ops.clone(),
        rearranges,
        iotas,
    };
    walk::rewrite_stms(body, &mut |s, out| {
        let is_acc_map = matches!(&s.exp, Exp::Soac(Soac::Map(m))
            if m.lam.params.iter().any(|p| p.ty.is_acc()));
        if !is_acc_map {
            return out.push(s);
        }
        let mixed = s.pat.iter().any(|p| p.ty.is_acc()) && s.pat.iter().any(|p| !p.ty.is_acc());
        let (rest, upd_part) = if mixed {
            match split_acc_map(&s, env.ctx) {
                Some((rest, upd_part)) => (Some(rest), upd_part),
                None => return out.push(s),
            }
        } else {
            (None, s.clone())
        };
        match sink(&upd_part, &mut env, MAX_DEPTH) {
            Some(new) => {
                out.extend(rest);
                out.extend(new);
            }
            None if !mixed => match cancel_transpose(&s, &mut env) {
                Some(new) => out.extend(new),
                None => out.push(s),
            },
            None => out.push(s),
        }
    });
}

/// How many map levels an invariant dimension may move down.
const MAX_DEPTH: u32 = 3;

/// [`reduce_nest`], after moving the outer map down through up to
/// `depth` levels of maps until the update is right below it.
fn sink(s: &Stm, env: &mut Env, depth: u32) -> Option<Vec<Stm>> {
    if let Some(r) = reduce_nest(s, env) {
        return Some(r);
    }
    if depth == 0 {
        return None;
    }
    // Only worth it when the update's index is invariant to the outer
    // map; the deeper levels check that.
    let (mut out, _) = interchange(s, env)?;
    let Exp::Soac(Soac::Map(k)) = &mut out.last_mut()?.exp else {
        return None;
    };
    let moved = k.lam.body.stms.pop()?;
    let new = sink(&moved, env, depth - 1)?;
    k.lam.body.stms.extend(new);
    Some(out)
}

/// Interchanges an updating pair whose inner map reads a transposed
/// array's rows: the new outer map reads the array before the transpose,
/// whose producer can then fuse into it.
fn cancel_transpose(s: &Stm, env: &mut Env) -> Option<Vec<Stm>> {
    let p = match_pair(s)?;
    let through_rearrange = p.inner.arrs.iter().zip(&p.transposed).any(|(x, t)| {
        *t && p
            .outer
            .lam
            .params
            .iter()
            .position(|o| o.name == *x)
            .is_some_and(|j| env.rearranges.contains_key(&p.outer.arrs[j]))
    });
    let upd_below = walk::any_in_body(&p.inner.lam.body, |st| {
        matches!(st.exp, Exp::Basic(BasicOp::Upd { .. }))
    });
    if !through_rearrange || !upd_below {
        return None;
    }
    interchange(s, env).map(|(out, _)| out)
}

/// Whether a statement is cheap enough to compute in both halves of a
/// split, and cannot consume anything.
fn cheap(s: &Stm) -> bool {
    matches!(&s.exp, Exp::Basic(b) if !matches!(b,
        BasicOp::Upd { .. } | BasicOp::Update { .. } | BasicOp::Copy { .. }
        | BasicOp::Concat { .. } | BasicOp::Scratch { .. }))
}

/// The statements of `stms` that `results` need, as flags; `effects`
/// also keeps assertions.
fn needed(stms: &[Stm], results: &[Operand], effects: bool) -> Vec<bool> {
    let mut live: FxHashSet<VName> = results.iter().filter_map(|o| o.var()).collect();
    let mut keep = vec![false; stms.len()];
    for (i, s) in stms.iter().enumerate().rev() {
        let assert = matches!(s.exp, Exp::Basic(BasicOp::Assert { .. }));
        if (effects && assert) || s.pat.iter().any(|p| live.contains(&p.name)) {
            keep[i] = true;
            stm_uses(s, &mut |v| {
                live.insert(v);
            });
        }
    }
    keep
}

/// Splits a map returning accumulators and other values into a map for
/// the other values (with every assertion) and one for the accumulators;
/// `None` unless the two share only cheap basic statements and the first
/// needs no accumulator.
fn split_acc_map(s: &Stm, ctx: &mut Ctx) -> Option<(Stm, Stm)> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    let is_acc: Vec<bool> = m.lam.ret.iter().map(Type::is_acc).collect();
    let pick = |want: bool| -> Vec<bool> { is_acc.iter().map(|a| *a == want).collect() };
    let (accs, others) = (pick(true), pick(false));
    let res = &m.lam.body.result;
    let sel = |keep: &[bool]| -> Vec<Operand> {
        res.iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(o, _)| *o)
            .collect()
    };
    let stms = &m.lam.body.stms;
    let for_accs = needed(stms, &sel(&accs), false);
    let for_rest = needed(stms, &sel(&others), true);
    let acc_params: FxHashSet<VName> = m
        .lam
        .params
        .iter()
        .filter(|p| p.ty.is_acc())
        .map(|p| p.name)
        .collect();
    for (i, st) in stms.iter().enumerate() {
        if for_accs[i] && for_rest[i] && !cheap(st) {
            return None;
        }
        if for_rest[i] && free_in_exp(&st.exp).iter().any(|v| acc_params.contains(v)) {
            return None;
        }
    }
    let take = |keep: &[bool]| -> Vec<Stm> {
        stms.iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| s.clone())
            .collect()
    };
    let part = |keep_res: &[bool], keep_stms: &[bool], params: bool| {
        let mut lam = Lambda {
            params: m.lam.params.clone(),
            ret: m
                .lam
                .ret
                .iter()
                .zip(keep_res)
                .filter(|(_, k)| **k)
                .map(|(t, _)| t.clone())
                .collect(),
            body: Body::new(take(keep_stms), sel(keep_res)),
        };
        let mut arrs = m.arrs.clone();
        let pat: Vec<Param> = s
            .pat
            .iter()
            .zip(keep_res)
            .filter(|(_, k)| **k)
            .map(|(p, _)| p.clone())
            .collect();
        prune_params(&mut lam, &mut arrs, params);
        (lam, arrs, pat)
    };
    let (lam_r, arrs_r, pat_r) = part(&others, &for_rest, false);
    let (lam_a, arrs_a, pat_a) = part(&accs, &for_accs, true);
    let mut subst = Subst::default();
    let lam_a = Renamer {
        ctx,
        subst: &mut subst,
    }
    .lambda(&lam_a);
    let mk = |pat, lam, arrs| Stm {
        pat,
        exp: Map { w: m.w, lam, arrs }.into(),
        ..s.clone()
    };
    Some((mk(pat_r, lam_r, arrs_r), mk(pat_a, lam_a, arrs_a)))
}

/// Removes parameters (and their arrays) that the body does not read;
/// accumulator parameters only go when `keep_accs` is false.
fn prune_params(lam: &mut Lambda, arrs: &mut Vec<VName>, keep_accs: bool) {
    let free = free_in_body(&lam.body);
    let keep: Vec<bool> = lam
        .params
        .iter()
        .map(|p| free.contains(&p.name) || (keep_accs && p.ty.is_acc()))
        .collect();
    retain_by(&mut lam.params, &keep);
    retain_by(arrs, &keep);
}

/// Whether some statement of `b` may consume an array (in-place updates,
/// scatter and histogram destinations, loops, calls, withacc inputs):
/// moving such a body into another map, or renaming what it reads, could
/// make it consume a free variable.
fn may_consume(b: &Body) -> bool {
    walk::any_in_body(b, |st| {
        matches!(
            st.exp,
            Exp::Basic(BasicOp::Update { .. })
                | Exp::Soac(Soac::Scatter(_))
                | Exp::Soac(Soac::Hist(_))
                | Exp::Soac(Soac::WithAcc(_))
                | Exp::Loop(_)
                | Exp::Apply(_)
        )
    })
}

/// Statements that may move out of a map: they cannot fail (widths in
/// the IR are never negative) and cost little.
fn safe_to_hoist(s: &Stm) -> bool {
    match &s.exp {
        Exp::Basic(b) => match b {
            BasicOp::Atom(_)
            | BasicOp::UnOp(..)
            | BasicOp::Cmp(..)
            | BasicOp::Conv(..)
            | BasicOp::Size { .. }
            | BasicOp::Rearrange { .. }
            | BasicOp::Iota { .. }
            | BasicOp::Replicate { .. } => true,
            BasicOp::BinOp(op, ..) => !matches!(
                op,
                BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow
            ),
            _ => false,
        },
        Exp::If(i) => [&i.then_br, &i.else_br]
            .iter()
            .all(|b| b.stms.iter().all(safe_to_hoist)),
        _ => false,
    }
}

/// `map o (… acc) (\… a -> S; map c (… a) (\… a' -> B))`: an outer map
/// threading one accumulator only into the inner map, which it returns.
struct Pair<'a> {
    outer: &'a Map,
    hoisted: &'a [Stm],
    inner: &'a Map,
    /// The outer map's parameters.
    o_params: FxHashSet<VName>,
    /// The outer lambda's accumulator parameter and what it is bound to.
    a_o: VName,
    acc: VName,
    /// The inner lambda's accumulator parameter.
    a_c: VName,
    /// Which inputs of the inner map are rows of the outer map's rows
    /// (they become inputs of the new outer map, transposed).
    transposed: Vec<bool>,
}

fn match_pair(s: &Stm) -> Option<Pair<'_>> {
    let Exp::Soac(Soac::Map(outer)) = &s.exp else {
        return None;
    };
    let acc_pos: Vec<usize> = (0..outer.lam.params.len())
        .filter(|&i| outer.lam.params[i].ty.is_acc())
        .collect();
    let [ai] = acc_pos[..] else { return None };
    let a_o = outer.lam.params[ai].name;
    let (inner_stm, hoisted) = outer.lam.body.stms.split_last()?;
    let Exp::Soac(Soac::Map(inner)) = &inner_stm.exp else {
        return None;
    };
    if outer.lam.ret.len() != 1
        || inner_stm.pat.len() != 1
        || outer.lam.body.result != [Operand::Var(inner_stm.pat[0].name)]
        || inner.lam.ret.len() != 1
    {
        return None;
    }
    let c_accs: Vec<usize> = (0..inner.lam.params.len())
        .filter(|&i| inner.lam.params[i].ty.is_acc())
        .collect();
    let [ci] = c_accs[..] else { return None };
    if inner.arrs[ci] != a_o {
        return None;
    }
    let o_params: FxHashSet<VName> = outer.lam.params.iter().map(|p| p.name).collect();
    // The outer lambda's other statements move out.
    for h in hoisted {
        let free = free_in_exp(&h.exp);
        if !safe_to_hoist(h) || free.iter().any(|v| o_params.contains(v)) {
            return None;
        }
    }
    if matches!(inner.w, Operand::Var(v) if o_params.contains(&v)) || may_consume(&inner.lam.body) {
        return None;
    }
    let transposed: Vec<bool> = inner
        .arrs
        .iter()
        .map(|x| o_params.contains(x) && *x != a_o)
        .collect();
    // Inputs bound inside the outer lambda cannot move out.
    let mut hoisted_binds = FxHashSet::default();
    for h in hoisted {
        h.pat.iter().for_each(|p| {
            hoisted_binds.insert(p.name);
        });
    }
    let outer_free = free::free_in_lambda(&outer.lam);
    if inner
        .arrs
        .iter()
        .any(|x| !o_params.contains(x) && !hoisted_binds.contains(x) && !outer_free.contains(x))
    {
        return None;
    }
    Some(Pair {
        outer,
        hoisted,
        inner,
        o_params,
        a_o,
        acc: outer.arrs[ai],
        a_c: inner.lam.params[ci].name,
        transposed,
    })
}

/// Whether `v` depends on the outer map: an outer parameter, a name the
/// inner lambda's body binds, or an inner parameter bound to a
/// transposed input.
fn variant(p: &Pair, binds: &FxHashSet<VName>, v: VName) -> bool {
    if p.o_params.contains(&v) || binds.contains(&v) {
        return true;
    }
    match p.inner.lam.params.iter().position(|q| q.name == v) {
        Some(i) => p.transposed[i],
        None => false,
    }
}

/// The names bound in the inner lambda's body.
fn inner_binds(p: &Pair) -> FxHashSet<VName> {
    let mut binds = FxHashSet::default();
    free::body_binds(&p.inner.lam.body, &mut |v| {
        binds.insert(v);
    });
    binds
}

/// Whether `b` reads an accumulator bound outside it other than `a_c`.
fn other_accs(b: &Body, a_c: VName, ctx: &Ctx) -> bool {
    free_in_body(b)
        .iter()
        .any(|v| *v != a_c && ctx.types.get(v).is_some_and(Type::is_acc))
}

/// The rewrite of the module doc on one statement, or `None` where a
/// condition fails.
fn reduce_nest(s: &Stm, env: &mut Env) -> Option<Vec<Stm>> {
    let p = match_pair(s)?;
    let op = env.ops.get(&p.acc)?.clone();
    let (upd, body) = p.inner.lam.body.stms.split_last()?;
    let Exp::Basic(BasicOp::Upd { acc, inds, vals }) = &upd.exp else {
        return None;
    };
    if *acc != p.a_c || p.inner.lam.body.result != [Operand::Var(upd.pat[0].name)] {
        return None;
    }
    // Nothing but the update sees the accumulator.
    let t_body = Body::new(body.to_vec(), vals.clone());
    let mut acc_seen = 0;
    for st in p.hoisted {
        stm_uses(st, &mut |v| acc_seen += usize::from(v == p.a_o));
    }
    if acc_seen > 0
        || free_in_body(&t_body).contains(&p.a_c)
        || free_in_body(&t_body).contains(&p.a_o)
        || walk::any_in_body(&t_body, |st| {
            matches!(st.exp, Exp::Basic(BasicOp::Upd { .. }))
                || st.pat.iter().any(|p| p.ty.is_acc())
        })
    {
        return None;
    }
    // The index must not depend on the outer map.
    let binds = inner_binds(&p);
    if inds
        .iter()
        .filter_map(|o| o.var())
        .any(|v| variant(&p, &binds, v))
    {
        return None;
    }
    let mut out: Vec<Stm> = p.hoisted.to_vec();
    let mut io = interchange_inputs(&p, &t_body, env, s.span, &mut out);
    let elems: Vec<Type> = match &p.inner.lam.params.iter().find(|q| q.name == p.a_c)?.ty {
        // Scalar elements only: the operator combines single elements.
        Type::Acc(a) if a.elems.iter().all(|t| t.as_prim().is_some()) => a.elems.clone(),
        _ => return None,
    };
    let o_dim = Dim::from_operand(&p.outer.w);
    let fresh = |env: &mut Env, base: &str, ty: Type| {
        let v = env.ctx.names.fresh(base);
        env.ctx.types.insert(v, ty.clone());
        Param::new(v, ty)
    };
    let vs: Vec<Param> = elems
        .iter()
        .map(|t| fresh(env, "vals", t.array_of(o_dim).unwrap_or_else(|| t.clone())))
        .collect();
    let sums: Vec<Param> = elems.iter().map(|t| fresh(env, "sum", t.clone())).collect();
    let v_map = Map {
        w: p.outer.w,
        arrs: io.v_arrs,
        lam: Lambda {
            params: io.v_params,
            ret: elems.clone(),
            body: t_body,
        },
    };
    let mut subst = Subst::default();
    let op_lam = Renamer {
        ctx: env.ctx,
        subst: &mut subst,
    }
    .lambda(&op.lam);
    let red = Reduce {
        w: p.outer.w,
        comm: true,
        op: AccOp {
            lam: op_lam,
            neutral: op.neutral.clone(),
        },
        arrs: vs.iter().map(|p| p.name).collect(),
    };
    let new_upd = Stm {
        exp: BasicOp::Upd {
            acc: p.a_c,
            inds: inds.clone(),
            vals: sums.iter().map(|p| Operand::Var(p.name)).collect(),
        }
        .into(),
        ..upd.clone()
    };
    io.k_params
        .push(p.inner.lam.params.iter().find(|q| q.name == p.a_c)?.clone());
    io.k_arrs.push(p.acc);
    let k_body = Body::new(
        vec![
            Stm::new(vs, v_map, s.span),
            Stm::new(sums, red, s.span),
            new_upd,
        ],
        vec![Operand::Var(upd.pat[0].name)],
    );
    out.push(new_outer(&p, s, io.k_params, io.k_arrs, k_body));
    Some(out)
}

/// The map over the inner dimension that replaces the pair.
fn new_outer(p: &Pair, s: &Stm, params: Vec<Param>, arrs: Vec<VName>, body: Body) -> Stm {
    let mut lam = Lambda {
        params,
        ret: p.inner.lam.ret.clone(),
        body,
    };
    let mut arrs = arrs;
    prune_params(&mut lam, &mut arrs, true);
    Stm {
        exp: Map {
            w: p.inner.w,
            arrs,
            lam,
        }
        .into(),
        ..s.clone()
    }
}

/// Inputs of the maps after an interchange: `k_*` of the new outer map
/// (over the inner dimension; without the accumulator), `v_*` of the new
/// inner map (over the outer dimension: the outer parameters `body`
/// reads, and the elements of the transposed inputs).
struct Inputs {
    k_arrs: Vec<VName>,
    k_params: Vec<Param>,
    v_arrs: Vec<VName>,
    v_params: Vec<Param>,
    /// A row of a transposed input, whose size is the outer width.
    first_row: Option<VName>,
}

fn interchange_inputs(
    p: &Pair,
    body: &Body,
    env: &mut Env,
    span: parad_base::Span,
    out: &mut Vec<Stm>,
) -> Inputs {
    let outer = p.outer;
    let mut io = Inputs {
        k_arrs: vec![],
        k_params: vec![],
        v_arrs: vec![],
        v_params: vec![],
        first_row: None,
    };
    for (i, (q, x)) in p.inner.lam.params.iter().zip(&p.inner.arrs).enumerate() {
        if q.ty.is_acc() {
            continue;
        }
        if p.transposed[i] {
            let j = outer
                .lam
                .params
                .iter()
                .position(|o| o.name == *x)
                .unwrap_or(0);
            let (arr_t, ty_t) = transpose_outer(outer.arrs[j], env, span, out);
            let qt = env.ctx.names.fresh_like(q.name);
            let row_t = ty_t.row().unwrap_or_else(|| q.ty.clone()).erase_dims();
            env.ctx.types.insert(qt, row_t.clone());
            io.k_arrs.push(arr_t);
            io.k_params.push(Param::new(qt, row_t));
            io.v_arrs.push(qt);
            io.v_params.push(q.clone());
            io.first_row.get_or_insert(qt);
        } else {
            io.k_arrs.push(index_input(*x, p.inner.w, env, span, out));
            io.k_params.push(q.clone());
        }
    }
    let free = free_in_body(body);
    for (o, a) in outer.lam.params.iter().zip(&outer.arrs) {
        if !o.ty.is_acc() && free.contains(&o.name) {
            io.v_arrs.insert(0, *a);
            io.v_params.insert(0, o.clone());
        }
    }
    io
}

/// Interchanges the pair: `map c (… acc) (\… a -> map o (… a) (\… a' ->
/// B))`. Sound for any body: the iterations of both maps are independent
/// but for the accumulator, whose updates commute.
fn interchange(s: &Stm, env: &mut Env) -> Option<(Vec<Stm>, VName)> {
    let p = match_pair(s)?;
    let body = &p.inner.lam.body;
    let mut acc_seen = 0;
    for st in p.hoisted {
        stm_uses(st, &mut |v| acc_seen += usize::from(v == p.a_o));
    }
    if acc_seen > 0 || other_accs(body, p.a_c, env.ctx) {
        return None;
    }
    let mut out: Vec<Stm> = p.hoisted.to_vec();
    let mut io = interchange_inputs(&p, body, env, s.span, &mut out);
    let a_c = p.inner.lam.params.iter().find(|q| q.name == p.a_c)?.clone();
    let a_k = env.ctx.names.fresh_like(a_c.name);
    env.ctx.types.insert(a_k, a_c.ty.clone());
    if let Some(op) = env.ops.get(&p.acc).cloned() {
        env.ops.insert(a_k, op);
    }
    let res = env.ctx.names.fresh_like(a_c.name);
    env.ctx.types.insert(res, a_c.ty.clone());
    let mut k_stms = vec![];
    // The new inner width: the outer one, read from a transposed row
    // where there is one (equal: the outer map checked its inputs' size),
    // so that fusion sees the size of what produced the row.
    let w = match io.first_row {
        Some(r) => {
            let n = env.ctx.names.fresh("n");
            env.ctx.types.insert(n, types::I64);
            k_stms.push(Stm::new(
                vec![Param::new(n, types::I64)],
                BasicOp::Size { arr: r, dim: 0 },
                s.span,
            ));
            Operand::Var(n)
        }
        None => p.outer.w,
    };
    io.v_params.push(a_c.clone());
    io.v_arrs.push(a_k);
    let inner = Map {
        w,
        arrs: io.v_arrs,
        lam: Lambda {
            params: io.v_params,
            ret: vec![a_c.ty.clone()],
            body: body.clone(),
        },
    };
    k_stms.push(Stm::new(
        vec![Param::new(res, a_c.ty.clone())],
        inner,
        s.span,
    ));
    io.k_params.push(Param::new(a_k, a_c.ty.clone()));
    io.k_arrs.push(p.acc);
    let k_body = Body::new(k_stms, vec![Operand::Var(res)]);
    out.push(new_outer(&p, s, io.k_params, io.k_arrs, k_body));
    Some((out, res))
}

/// `x`, or a fresh `iota(w)` where `x` is an iota of another length.
/// Inside the nest the two lengths were equal (the inner map checked its
/// inputs' sizes), but only where the outer map ran: the lengths can
/// differ where it was empty, e.g. an index over a guarded size.
fn index_input(
    x: VName,
    w: Operand,
    env: &mut Env,
    span: parad_base::Span,
    out: &mut Vec<Stm>,
) -> VName {
    match env.iotas.get(&x) {
        Some(n) if *n != w => {
            let v = env.ctx.names.fresh("iota");
            let ty = types::I64
                .array_of(Dim::from_operand(&w))
                .unwrap_or(types::I64);
            env.ctx.types.insert(v, ty.clone());
            env.iotas.insert(v, w);
            let iota = BasicOp::Iota {
                n: w,
                start: Operand::i64(0),
                step: Operand::i64(1),
                it: IntType::I64,
            };
            out.push(Stm::new(vec![Param::new(v, ty)], iota, span));
            v
        }
        _ => x,
    }
}

/// `arr` with its two outer dimensions swapped, folding a rearrange that
/// produced `arr`; pushes the statement it needs (if any) onto `out`.
fn transpose_outer(
    arr: VName,
    env: &mut Env,
    span: parad_base::Span,
    out: &mut Vec<Stm>,
) -> (VName, Type) {
    let ty = env.ctx.types.get(&arr).cloned().unwrap_or(types::I64);
    let rank = ty.rank().max(2);
    let mut perm: Vec<usize> = (0..rank).collect();
    perm.swap(0, 1);
    let (src, perm) = match env.rearranges.get(&arr) {
        Some((b, p2)) if p2.len() == rank => (*b, perm.iter().map(|&i| p2[i]).collect()),
        _ => (arr, perm),
    };
    let src_ty = env.ctx.types.get(&src).cloned().unwrap_or(ty);
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return (src, src_ty);
    }
    let shape = src_ty.shape();
    let new_shape: Vec<Dim> = perm
        .iter()
        .map(|&p| shape.get(p).copied().unwrap_or(Dim::Ext))
        .collect();
    let new_ty = match src_ty.elem() {
        Some(e) => Type::array(e, new_shape),
        None => src_ty.clone(),
    };
    let v = env.ctx.names.fresh("tr");
    env.ctx.types.insert(v, new_ty.clone());
    env.rearranges.insert(v, (src, perm.clone()));
    out.push(Stm::new(
        vec![Param::new(v, new_ty.clone())],
        BasicOp::Rearrange { arr: src, perm },
        span,
    ));
    (v, new_ty)
}

// ---------------------------------------------------------------------
// Accumulators updated once per element become maps

/// Sizes known equal: the operands of `eq.i64` conditions that a
/// top-level assertion checked.
#[derive(Default)]
struct SameSizes {
    parent: FxHashMap<VName, VName>,
}

impl SameSizes {
    fn find(&self, mut v: VName) -> VName {
        while let Some(p) = self.parent.get(&v) {
            v = *p;
        }
        v
    }

    fn join(&mut self, a: VName, b: VName) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }

    fn same(&self, a: Operand, b: Operand) -> bool {
        match (a, b) {
            (Operand::Var(x), Operand::Var(y)) => self.find(x) == self.find(y),
            _ => a == b,
        }
    }
}

/// Replaces a `withacc` whose accumulator starts as the operator's
/// neutral element everywhere and is updated exactly once per element by
/// a nest of maps over every index (one map per dimension of the index
/// space, each over an `iota` of that dimension giving the index) with
/// the nest itself, returning `op(ne, v)` per element instead of updating
/// (just `v` where `v` is a reduction with the same `+` or `*` and
/// neutral element, which already starts from it). The result is the
/// same array: each element is combined once with the neutral element.
/// Sizes are compared modulo the equalities that top-level assertions
/// established before the statement.
pub fn withaccs_to_maps(body: &mut Body, ctx: &mut Ctx) {
    let mut same = SameSizes::default();
    let mut eqs: FxHashMap<VName, (VName, VName)> = FxHashMap::default();
    let mut defs: FxHashMap<VName, Exp> = FxHashMap::default();
    walk::body_stms(body, |s| {
        if let [p] = &s.pat[..] {
            if matches!(
                s.exp,
                Exp::Basic(BasicOp::Replicate { .. } | BasicOp::Iota { .. })
            ) {
                defs.insert(p.name, s.exp.clone());
            }
        }
    });
    for mut s in std::mem::take(&mut body.stms) {
        match &s.exp {
            Exp::Basic(BasicOp::Cmp(
                CmpOp::Eq,
                PrimType::Int(IntType::I64),
                Operand::Var(a),
                Operand::Var(b),
            )) => {
                eqs.insert(s.pat[0].name, (*a, *b));
            }
            Exp::Basic(BasicOp::Assert {
                cond: Operand::Var(c),
                ..
            }) => {
                if let Some((a, b)) = eqs.get(c) {
                    same.join(*a, *b);
                }
            }
            _ => {}
        }
        let mut tmp = Body::new(vec![], vec![]);
        tmp.stms.push(std::mem::replace(
            &mut s,
            Stm::new(
                vec![],
                Exp::atom(Operand::i64(0)),
                parad_base::Span::default(),
            ),
        ));
        walk::rewrite_stms(
            &mut tmp,
            &mut |st, out| match withacc_to_map(&st, &same, &defs, ctx) {
                Some(new) => out.push(new),
                None => out.push(st),
            },
        );
        body.stms.extend(tmp.stms);
    }
}

/// The scalar that `arr` holds everywhere and its shape, where `arr` is a
/// nest of replicates.
fn replicated(arr: VName, defs: &FxHashMap<VName, Exp>) -> Option<(Operand, Vec<Operand>)> {
    let mut dims = vec![];
    let mut v = Operand::Var(arr);
    while let Operand::Var(x) = v {
        let Some(Exp::Basic(BasicOp::Replicate { n, value })) = defs.get(&x) else {
            return None;
        };
        dims.push(*n);
        v = *value;
    }
    Some((v, dims))
}

fn withacc_to_map(
    s: &Stm,
    same: &SameSizes,
    defs: &FxHashMap<VName, Exp>,
    ctx: &mut Ctx,
) -> Option<Stm> {
    let Exp::Soac(Soac::WithAcc(w)) = &s.exp else {
        return None;
    };
    let ([input], [acc], [pe]) = (&w.inputs[..], &w.lam.params[..], &s.pat[..]) else {
        return None;
    };
    let ([arr], Some(op)) = (&input.arrs[..], &input.op) else {
        return None;
    };
    let [ne] = op.neutral[..] else { return None };
    let (fill, shape) = replicated(*arr, defs)?;
    let ispace = &input.ispace;
    if fill != ne
        || shape.len() != ispace.len()
        || !shape.iter().zip(ispace).all(|(a, b)| same.same(*a, *b))
    {
        return None;
    }
    let Type::Acc(AccType { elems, .. }) = &acc.ty else {
        return None;
    };
    let [elem] = &elems[..] else { return None };
    let elem = elem.as_prim()?;
    let ([top], [res]) = (&w.lam.body.stms[..], &w.lam.body.result[..]) else {
        return None;
    };
    if top.pat.len() != 1 || *res != Operand::Var(top.pat[0].name) {
        return None;
    }
    let mut idx = vec![];
    let nest = strip_level(
        top, acc.name, ispace, 0, same, defs, op, ne, elem, &mut idx, ctx,
    )?;
    Some(Stm {
        pat: vec![pe.clone()],
        exp: nest,
        ..s.clone()
    })
}

/// Level `l` of the nest (a map over `ispace[l]`), without the
/// accumulator: the map returning the values.
#[allow(clippy::too_many_arguments)]
fn strip_level(
    s: &Stm,
    acc: VName,
    ispace: &[Operand],
    l: usize,
    same: &SameSizes,
    defs: &FxHashMap<VName, Exp>,
    op: &AccOp,
    ne: Operand,
    elem: PrimType,
    idx: &mut Vec<FxHashSet<VName>>,
    ctx: &mut Ctx,
) -> Option<Exp> {
    let Exp::Soac(Soac::Map(m)) = &s.exp else {
        return None;
    };
    if !same.same(m.w, ispace[l]) || m.lam.ret.len() != 1 {
        return None;
    }
    let accs: Vec<usize> = (0..m.arrs.len())
        .filter(|&i| m.lam.params[i].ty.is_acc())
        .collect();
    let [ai] = accs[..] else { return None };
    if m.arrs[ai] != acc {
        return None;
    }
    let a = m.lam.params[ai].name;
    let (last, rest) = m.lam.body.stms.split_last()?;
    let rest_body = Body::new(rest.to_vec(), vec![]);
    if free_in_body(&rest_body).contains(&a)
        || m.lam.body.result != [Operand::Var(last.pat.first()?.name)]
    {
        return None;
    }
    // The parameters that give this level's index: rows of an iota over
    // the whole dimension.
    let here: FxHashSet<VName> = m
        .lam
        .params
        .iter()
        .zip(&m.arrs)
        .filter(|(_, x)| {
            matches!(defs.get(x), Some(Exp::Basic(BasicOp::Iota {
                n,
                start: Operand::Const(Scalar::I64(0)),
                step: Operand::Const(Scalar::I64(1)),
                it: IntType::I64,
            })) if same.same(*n, ispace[l]))
        })
        .map(|(p, _)| p.name)
        .collect();
    idx.push(here);
    let mut stms = rest.to_vec();
    let result = if l + 1 == ispace.len() {
        let Exp::Basic(BasicOp::Upd {
            acc: ua,
            inds,
            vals,
        }) = &last.exp
        else {
            return None;
        };
        let ([v], true) = (&vals[..], *ua == a && inds.len() == ispace.len()) else {
            return None;
        };
        // Every index is its level's: each element is updated once.
        let own = |(k, o): (usize, &Operand)| matches!(o, Operand::Var(v) if idx[k].contains(v));
        if !inds.iter().enumerate().all(own) {
            return None;
        }
        combine_with_neutral(*v, &mut stms, op, ne, ctx, last.span)
    } else {
        let inner = strip_level(last, a, ispace, l + 1, same, defs, op, ne, elem, idx, ctx)?;
        let ty = Type::array(
            elem,
            ispace[l + 1..].iter().map(Dim::from_operand).collect(),
        );
        let v = ctx.names.fresh("elems");
        ctx.types.insert(v, ty.clone());
        stms.push(Stm {
            pat: vec![Param::new(v, ty)],
            exp: inner,
            ..last.clone()
        });
        Operand::Var(v)
    };
    let ret = if l + 1 == ispace.len() {
        Type::Prim(elem)
    } else {
        Type::array(
            elem,
            ispace[l + 1..].iter().map(Dim::from_operand).collect(),
        )
    };
    let mut params = m.lam.params.clone();
    let mut arrs = m.arrs.clone();
    params.remove(ai);
    arrs.remove(ai);
    Some(
        Map {
            w: m.w,
            arrs,
            lam: Lambda {
                params,
                ret: vec![ret],
                body: Body::new(stms, vec![result]),
            },
        }
        .into(),
    )
}

/// The single binary operator of a lambda `\x y -> x ⊙ y`, if that is all
/// it is.
fn single_binop(l: &Lambda) -> Option<(BinOp, PrimType)> {
    let ([x, y], [st], [r]) = (&l.params[..], &l.body.stms[..], &l.body.result[..]) else {
        return None;
    };
    match &st.exp {
        Exp::Basic(BasicOp::BinOp(op, t, Operand::Var(a), Operand::Var(b)))
            if *a == x.name && *b == y.name && *r == Operand::Var(st.pat[0].name) =>
        {
            Some((*op, *t))
        }
        _ => None,
    }
}

/// `op(ne, v)`, appended to `stms`; just `v` where `stms` computes it as
/// a `reduce` with the same `+` or `*` and neutral element (then `v` is
/// `ne ⊙ …` already, and combining it with `ne` once more gives it back
/// bit for bit: `0 + s` with `s` never `-0`, `1 * s`).
fn combine_with_neutral(
    v: Operand,
    stms: &mut Vec<Stm>,
    op: &AccOp,
    ne: Operand,
    ctx: &mut Ctx,
    span: parad_base::Span,
) -> Operand {
    let acc_op = single_binop(&op.lam);
    let from_reduce = stms.iter().any(|st| {
        let Exp::Soac(Soac::Reduce(r)) = &st.exp else {
            return false;
        };
        st.pat.len() == 1
            && Operand::Var(st.pat[0].name) == v
            && r.op.neutral == [ne]
            && single_binop(&r.op.lam) == acc_op
            && matches!(acc_op, Some((BinOp::Add | BinOp::Mul, _)))
    });
    if from_reduce {
        return v;
    }
    let mut subst = Subst::default();
    let lam = Renamer {
        ctx,
        subst: &mut subst,
    }
    .lambda(&op.lam);
    for (p, a) in lam.params.iter().zip([ne, v]) {
        stms.push(Stm::new(vec![p.clone()], Exp::atom(a), span));
    }
    stms.extend(lam.body.stms);
    lam.body.result[0]
}
