//! `reduce`: special rules for `+` (also vectorised), `*` (with zero
//! counting, exact when elements are zero), `min`/`max` (the first
//! extremal element gets the whole adjoint; the neutral element wins
//! ties), and the generic rule `y = l_i ⊙ a_i ⊙ r_i` with `l`, `r` from two
//! exclusive scans and a map of the operator's vjp with respect to `a_i`.

use super::adjenv::Rev;
use super::build::{apply_lambda, map, scan_exclusive};
use super::build::{essential_stms, unalias};
use super::vjp_inline;
use crate::{AdError, Result};
use parad_base::PrimType;
use parad_core::free::free_in_lambda;
use parad_core::pexp::{self, cmp, eq, if_};
use parad_core::{consts, *};

/// A recognised operator: a single float binary operation on the two
/// parameters (either order for commutative ones), or a map of one
/// (vectorised).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Special {
    Add,
    Mul,
    Min,
    Max,
}

/// The special operator `op` is, with its nesting depth of maps.
pub fn classify(lam: &Lambda) -> Option<(Special, usize)> {
    if lam.params.len() != 2 || lam.body.result.len() != 1 {
        return None;
    }
    let [s] = essential_stms(&lam.body)[..] else {
        return None;
    };
    let base = |o: &Operand| match *o {
        Operand::Var(v) => Operand::Var(unalias(&lam.body, v)),
        c => c,
    };
    if base(&lam.body.result[0]) != Operand::Var(s.pat[0].name) {
        return None;
    }
    let (x, y) = (lam.params[0].name, lam.params[1].name);
    let args_ok = |a: &Operand, c: &Operand| {
        let (a, c) = (base(a), base(c));
        (a == Operand::Var(x) && c == Operand::Var(y))
            || (a == Operand::Var(y) && c == Operand::Var(x))
    };
    match &s.exp {
        // `*` on integers wraps around, so the rule dividing by the
        // elements does not apply: the generic rule handles it.
        Exp::Basic(BasicOp::BinOp(op, t, a, c)) if args_ok(a, c) && *t != PrimType::Bool => Some((
            match (op, t) {
                (BinOp::Add, _) => Special::Add,
                (BinOp::Mul, PrimType::Float(_)) => Special::Mul,
                (BinOp::Min, _) => Special::Min,
                (BinOp::Max, _) => Special::Max,
                _ => return None,
            },
            0,
        )),
        Exp::Soac(Soac::Map(Map {
            lam: inner, arrs, ..
        })) if arrs.len() == 2 && args_ok(&arrs[0].into(), &arrs[1].into()) => {
            classify(inner).map(|(s, d)| (s, d + 1))
        }
        _ => None,
    }
}

/// Fails when the operator reads active free variables (their adjoints
/// would be lost).
pub fn check_op_free(r: &Rev, b: &Builder, lam: &Lambda, span: parad_base::Span) -> Result<()> {
    if free_in_lambda(lam).iter().any(|&v| r.wants(b, v)) {
        return Err(AdError::new(
            span,
            "cannot differentiate an operator that uses differentiated free variables",
        ));
    }
    Ok(())
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Reduce(Reduce { w, op, arrs, .. })) = &s.exp else {
        unreachable!()
    };
    check_op_free(r, b, &op.lam, s.span)?;
    let w = r.po(*w);
    let xs: Vec<VName> = arrs.iter().map(|&a| r.p(a)).collect();
    let seeds = r.seeds(b, &s.pat);
    match classify(&op.lam) {
        Some((Special::Add, _)) => {
            if r.wants(b, arrs[0]) {
                let c = b.replicate(w, seeds[0]);
                r.add(b, arrs[0], c.into());
            }
            Ok(())
        }
        Some((Special::Mul, 0)) => {
            if r.wants(b, arrs[0]) {
                let ne = r.po(op.neutral[0]);
                let c = mul_adjoint(b, w, xs[0], ne, seeds[0]);
                r.add(b, arrs[0], c.into());
            }
            Ok(())
        }
        Some((sp @ (Special::Min | Special::Max), 0)) => {
            if r.wants(b, arrs[0]) {
                let ne = r.po(op.neutral[0]);
                let (_, i) = argminmax(b, w, xs[0], ne, sp == Special::Min);
                r.add_point(b, arrs[0], i.into(), seeds[0]);
            }
            Ok(())
        }
        _ => generic(r, b, w, op, arrs, &xs, &seeds),
    }
}

/// Product of the non-zero elements of `xs` (times `ne`) and the number
/// of zeros.
pub fn nonzero_product(b: &mut Builder, w: Operand, xs: VName) -> (VName, VName) {
    let et = b.type_of(xs).elem().expect("array");
    let pz = zeros_as_ones(b, w, xs);
    let ne = vec![consts::one(et).into(), Operand::i64(0)];
    let r = b.reduce(true, &pz, ne, mul_count);
    (r[0], r[1])
}

/// The elements of `xs` with zeros replaced by one, and whether each is
/// zero (an `i64` 0 or 1): the inputs of a product that counts zeros.
pub fn zeros_as_ones(b: &mut Builder, w: Operand, xs: VName) -> Vec<VName> {
    map(b, w, &[xs], |b, x| {
        let zero = b.expr(eq(x[0], 0));
        let p = b.expr(if_(zero, 1, x[0]));
        vec![p, b.expr(if_(zero, Operand::i64(1), Operand::i64(0)))]
    })
}

/// The operator of a product that counts zeros, on (product, count) pairs.
pub fn mul_count(b: &mut Builder, x: &[VName], y: &[VName]) -> Vec<Operand> {
    vec![b.expr(x[0] * y[0]), b.expr(x[1] + y[1])]
}

/// The adjoint of the factor `x` of a product with `z` zeros, from `pyb`,
/// the product of its non-zero factors times the product's adjoint:
/// `pyb / x` without zeros, `pyb` for the only zero, else zero.
pub fn factor_adjoint(z: Operand, pyb: Operand, x: Operand) -> PExp {
    if_(eq(z, 0), pyb / x, if_(eq(z, 1) & eq(x, 0), pyb, 0))
}

/// Adjoint of `reduce (*) ne xs` with respect to `xs`: with no zeros
/// `p/x·ȳ`, with exactly one zero only that element gets `p·ȳ` (p the
/// product of the others), with more zeros nothing.
fn mul_adjoint(b: &mut Builder, w: Operand, xs: VName, ne: Operand, ybar: Operand) -> VName {
    let (p, z) = nonzero_product(b, w, xs);
    let pyb = b.expr(p * ne * ybar);
    map(b, w, &[xs], |b, x| {
        vec![b.expr(factor_adjoint(z.into(), pyb, x[0].into()))]
    })[0]
}

/// `(value, index)` of the first minimum (or maximum) of `xs`, starting
/// from `(ne, -1)`: ties go to the lower index, and the neutral element
/// (index -1) wins ties with elements.
pub fn argminmax(b: &mut Builder, w: Operand, xs: VName, ne: Operand, min: bool) -> (VName, VName) {
    let is = b.iota(w);
    let r = b.reduce(true, &[xs, is], vec![ne, Operand::i64(-1)], |b, x, y| {
        argminmax_op(b, x, y, min)
    });
    (r[0], r[1])
}

/// The argmin/argmax operator on `(value, index)` pairs.
pub fn argminmax_op(b: &mut Builder, x: &[VName], y: &[VName], min: bool) -> Vec<Operand> {
    let better = |a, c| cmp(if min { CmpOp::Lt } else { CmpOp::Gt }, a, c);
    let y_wins = b.expr(better(y[0], x[0]));
    let v = b.expr(if_(y_wins, y[0], x[0]));
    let i_tie = if_(y_wins, y[1], pexp::min(x[1], y[1]));
    vec![v, b.expr(if_(better(x[0], y[0]), x[1], i_tie))]
}

/// The operator with its arguments swapped.
pub fn flip(b: &mut Builder, op: &Lambda) -> Lambda {
    let k = op.params.len() / 2;
    let tys: Vec<Type> = op.params.iter().map(|p| p.ty.clone()).collect();
    b.lambda(tys, |b, p| {
        let args: Vec<Operand> = p[k..].iter().chain(&p[..k]).map(|&v| v.into()).collect();
        apply_lambda(b, op, &args)
    })
}

/// The adjoints of `a` (those listed in `wanted`) in `l ⊙ a ⊙ r`, seeded
/// with `seeds`: the generic rule's term for one element.
pub fn middle_adjoint(
    b: &mut Builder,
    lam: &Lambda,
    (l, a, r): (&[VName], &[VName], &[VName]),
    seeds: &[Operand],
    wanted: &[usize],
) -> Result<Vec<Operand>> {
    let tys: Vec<Type> = a.iter().map(|&v| b.type_of(v)).collect();
    let f = b.lambda(tys, |b, a| {
        let args: Vec<Operand> = l.iter().chain(a).map(|&v| v.into()).collect();
        let t = apply_lambda(b, lam, &args);
        let args: Vec<Operand> = t.into_iter().chain(r.iter().map(|&v| v.into())).collect();
        apply_lambda(b, lam, &args)
    });
    let prims: Vec<Operand> = a.iter().map(|&v| v.into()).collect();
    let (_, adj) = vjp_inline(b, &f, &prims, seeds)?;
    Ok(wanted.iter().map(|&j| adj[j]).collect())
}

#[allow(clippy::too_many_arguments)]
fn generic(
    r: &mut Rev,
    b: &mut Builder,
    w: Operand,
    op: &AccOp,
    arrs: &[VName],
    xs: &[VName],
    seeds: &[Operand],
) -> Result<()> {
    let k = arrs.len();
    let wanted: Vec<usize> = (0..k).filter(|&j| r.wants(b, arrs[j])).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let neutral: Vec<Operand> = op.neutral.iter().map(|&o| r.po(o)).collect();
    let op_here = AccOp {
        lam: op.lam.clone(),
        neutral: neutral.clone(),
    };
    let ls = scan_exclusive(b, w, &op_here, xs);
    let rev_xs: Vec<VName> = xs.iter().map(|&x| b.reverse(x)).collect();
    let flipped = AccOp {
        lam: flip(b, &op.lam),
        neutral,
    };
    let rs_rev = scan_exclusive(b, w, &flipped, &rev_xs);
    let rs: Vec<VName> = rs_rev.iter().map(|&x| b.reverse(x)).collect();
    let inputs: Vec<VName> = ls.iter().chain(xs).chain(&rs).copied().collect();
    let contribs = b.try_map_w(w, &inputs, |b, p| {
        let (l, a, rr) = (&p[..k], &p[k..2 * k], &p[2 * k..]);
        middle_adjoint(b, &op.lam, (l, a, rr), seeds, &wanted)
    })?;
    for (&j, &c) in wanted.iter().zip(&contribs) {
        r.add(b, arrs[j], c.into());
    }
    Ok(())
}
