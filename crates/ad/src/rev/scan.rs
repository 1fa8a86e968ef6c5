//! Inclusive `scan`. With `+` (also vectorised) the input adjoint is the
//! reversed suffix sum of the result adjoint. The generic rule (seed 000
//! §2.9, with the Jacobians transposed) solves the backward recurrence
//! `r̄[i] = ȳ[i] + cᵢ·r̄[i+1]`, `cᵢ = (∂(y[i] ⊙ a[i+1])/∂y[i])ᵀ`, by a scan
//! over the composition of affine maps, then maps the operator's vjp with
//! respect to its right argument: `ā[i] = vjp(a ↦ y[i-1] ⊙ a)(r̄[i])`
//! (the neutral element standing in for `y[-1]`). Tuple operators work
//! on `d` components of one type with `d×d` matrices.

use super::adjenv::Rev;
use super::build::{apply_lambda, if_, plus_op, zeros_row};
use super::reduce::{check_op_free, classify, Special};
use super::vjp_inline;
use crate::{AdError, Result};
use parad_base::{PrimType, Span};
use parad_core::{consts, pexp, *};

/// An entry of an identity matrix: one on the diagonal, else zero.
fn delta(t: PrimType, diagonal: bool) -> Operand {
    consts::int(t, diagonal.into()).into()
}

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Scan(Scan { w, op, arrs })) = &s.exp else {
        unreachable!()
    };
    check_op_free(r, b, &op.lam, s.span)?;
    if !arrs.iter().any(|&a| r.wants(b, a)) {
        return Ok(());
    }
    let w = r.po(*w);
    let seeds = r.seeds(b, &s.pat);
    if let Some((Special::Add, _)) = classify(&op.lam) {
        let yb = seeds[0].var().expect("array adjoint");
        let c = suffix_sums(b, w, yb);
        r.add(b, arrs[0], c.into());
        return Ok(());
    }
    let xs: Vec<VName> = arrs.iter().map(|&a| r.p(a)).collect();
    let ys: Vec<VName> = s.pat.iter().map(|p| r.p(p.name)).collect();
    let ne: Vec<Operand> = op.neutral.iter().map(|&o| r.po(o)).collect();
    let wanted: Vec<usize> = (0..arrs.len()).filter(|&j| r.wants(b, arrs[j])).collect();
    let contribs = contributions(b, s.span, w, &op.lam, &ne, &xs, &ys, &seeds, &wanted)?;
    for (&j, &c) in wanted.iter().zip(&contribs) {
        r.add(b, arrs[j], c.into());
    }
    Ok(())
}

/// The adjoints of the scanned arrays `xs` (those listed in `wanted`)
/// given the scan's results `ys` and their adjoints `seeds`.
#[allow(clippy::too_many_arguments)]
fn contributions(
    b: &mut Builder,
    span: Span,
    w: Operand,
    lam: &Lambda,
    ne: &[Operand],
    xs: &[VName],
    ys: &[VName],
    seeds: &[Operand],
    wanted: &[usize],
) -> Result<Vec<VName>> {
    let elem_tys: Vec<Type> = xs
        .iter()
        .map(|&x| b.type_of(x).row().expect("row"))
        .collect();
    if elem_tys.iter().any(|t| t.rank() > 0) {
        return vectorised(b, span, w, lam, ne, xs, ys, seeds, wanted);
    }
    // The components with adjoints: floats, and the other wanted ones.
    let fl: Vec<usize> = (0..xs.len())
        .filter(|&j| super::build::is_float(&elem_tys[j]) || wanted.contains(&j))
        .collect();
    let ft = match fl.first() {
        Some(&j) => elem_tys[j].as_prim().expect("scalar"),
        None => return Ok(vec![]),
    };
    if fl.iter().any(|&j| elem_tys[j].as_prim() != Some(ft)) {
        return Err(AdError::new(
            span,
            "reverse AD of a scan over differentiated components of different types is not supported",
        ));
    }
    let d = fl.len();
    let zero_of = |t: &Type| consts::zero(t.as_prim().expect("scalar")).into();

    // The pattern of the Jacobians (seed 000 §7.4), read off a symbolic
    // copy whose statements are discarded: entries that are constant zero
    // in it are zero for every element.
    let probe: Vec<Type> = elem_tys.clone();
    let (_, pm) = b.nested(|b| -> Result<Vec<Operand>> {
        let x: Vec<Operand> = probe
            .iter()
            .map(|t| b.param("probe", t.clone()).name.into())
            .collect();
        let a: Vec<Operand> = probe
            .iter()
            .map(|t| b.param("probe", t.clone()).name.into())
            .collect();
        jacobian(b, lam, &elem_tys, &fl, &x, &a)
    });
    let pattern = Pattern::detect(&pm?, d);
    let entries = pattern.entries(d);

    // cᵢ as the matrix entries the pattern keeps: column q of the full
    // matrix is the vjp of x ↦ x ⊙ a[i+1] seeded with the unit vector e_q.
    let is = b.iota(w);
    let last = b.expr(w - 1);
    let cs = b.try_map_w(w, &[is], |b, i| {
        let i = i[0];
        let is_last = b.expr(pexp::eq(i, last));
        let c = b.try_if(
            is_last,
            |_| Ok(entries.iter().map(|&(r, c)| delta(ft, r == c)).collect()),
            |b| {
                let i1 = b.expr(i + 1);
                let x: Vec<Operand> = ys.iter().map(|&y| b.index(y, &[i.into()]).into()).collect();
                let a: Vec<Operand> = xs.iter().map(|&v| b.index(v, &[i1]).into()).collect();
                let m = jacobian(b, lam, &elem_tys, &fl, &x, &a)?;
                Ok(entries.iter().map(|&(r, c)| m[r * d + c]).collect())
            },
        )?;
        Ok(c.into_iter().map(Operand::Var).collect())
    })?;
    // Solve the recurrence by scans over composed affine maps.
    let ybar: Vec<VName> = fl
        .iter()
        .map(|&j| seeds[j].var().expect("array adjoint"))
        .collect();
    let rbar: Vec<VName> = match pattern {
        Pattern::Generic => solve(b, ft, &ybar, &cs, d, 1),
        Pattern::Blocks { q, shared: true } => solve(b, ft, &ybar, &cs, q, d / q),
        Pattern::Blocks { q, shared: false } => (0..d / q)
            .flat_map(|k| {
                solve(
                    b,
                    ft,
                    &ybar[k * q..(k + 1) * q],
                    &cs[k * q * q..(k + 1) * q * q],
                    q,
                    1,
                )
            })
            .collect(),
    };
    // ā[i] = vjp(a ↦ y[i-1] ⊙ a)(r̄[i]).
    let mut inputs = vec![is];
    inputs.extend(&rbar);
    inputs.extend(xs);
    b.try_map_w(w, &inputs, |b, p| {
        let i = p[0];
        let rb = &p[1..1 + d];
        let a: Vec<Operand> = p[1 + d..].iter().map(|&v| v.into()).collect();
        let first = b.cmp(CmpOp::Eq, i, Operand::i64(0));
        let prev: Vec<Operand> = if_(
            b,
            first,
            elem_tys.clone(),
            |_| ne.to_vec(),
            |b| {
                let i0 = b.sub(i, Operand::i64(1));
                ys.iter()
                    .map(|&y| b.index(y, &[i0.into()]).into())
                    .collect()
            },
        )
        .into_iter()
        .map(Operand::Var)
        .collect();
        let g = b.lambda(elem_tys.clone(), |b, ap| {
            let args: Vec<Operand> = prev
                .iter()
                .copied()
                .chain(ap.iter().map(|&v| v.into()))
                .collect();
            apply_lambda(b, lam, &args)
        });
        let mut sd: Vec<Operand> = elem_tys.iter().map(zero_of).collect();
        for (pos, &j) in fl.iter().enumerate() {
            sd[j] = rb[pos].into();
        }
        let (_, adj) = vjp_inline(b, &g, &a, &sd)?;
        Ok(wanted.iter().map(|&j| adj[j]).collect())
    })
}

/// Column `q` (for each `q` in `fl`) of the transposed Jacobian of
/// `x ↦ x ⊙ a` at `x`, as a row-major `d×d` matrix over the components
/// `fl`.
fn jacobian(
    b: &mut Builder,
    lam: &Lambda,
    elem_tys: &[Type],
    fl: &[usize],
    x: &[Operand],
    a: &[Operand],
) -> Result<Vec<Operand>> {
    let d = fl.len();
    let f = b.lambda(elem_tys.to_vec(), |b, xp| {
        let args: Vec<Operand> = xp.iter().map(|&v| v.into()).chain(a.to_vec()).collect();
        apply_lambda(b, lam, &args)
    });
    let mut m = vec![Operand::i64(0); d * d];
    for (qpos, &q) in fl.iter().enumerate() {
        let seeds: Vec<Operand> = (0..elem_tys.len())
            .map(|j| delta(elem_tys[j].as_prim().expect("scalar"), j == q))
            .collect();
        let (_, adj) = vjp_inline(b, &f, x, &seeds)?;
        for (mpos, &mm) in fl.iter().enumerate() {
            m[mpos * d + qpos] = adj[mm];
        }
    }
    Ok(m)
}

/// The sparsity pattern of the scan's Jacobians (seed 000 §7.4).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pattern {
    Generic,
    /// Block-diagonal with `d/q` blocks of size `q×q` (ZeroQuad); all
    /// blocks the same (MatrixMul) when `shared`.
    Blocks {
        q: usize,
        shared: bool,
    },
}

impl Pattern {
    /// The smallest block size whose blocks hold every entry that is not
    /// a constant zero.
    fn detect(m: &[Operand], d: usize) -> Pattern {
        let zero = |o: &Operand| PExp::from(*o).is_zero();
        for q in (1..d).filter(|q| d.is_multiple_of(*q)) {
            let fits = (0..d * d).all(|e| e / d / q == e % d / q || zero(&m[e]));
            if fits {
                let shared = (1..d / q).all(|k| {
                    (0..q * q).all(|e| {
                        let (r, c) = (e / q, e % q);
                        m[(k * q + r) * d + k * q + c] == m[r * d + c]
                    })
                });
                return Pattern::Blocks { q, shared };
            }
        }
        Pattern::Generic
    }

    /// The `(row, column)` entries kept, block by block, row-major.
    fn entries(self, d: usize) -> Vec<(usize, usize)> {
        let (q, blocks) = match self {
            Pattern::Generic => (d, 1),
            Pattern::Blocks { q, shared: true } => (q, 1),
            Pattern::Blocks { q, shared: false } => (q, d / q),
        };
        (0..blocks)
            .flat_map(|k| (0..q * q).map(move |e| (k * q + e / q, k * q + e % q)))
            .collect()
    }
}

/// `r̄` from `r̄[i] = ȳ[i] + cᵢ·r̄[i+1]` where `cᵢ` is block-diagonal with
/// `k` copies of the `q×q` matrix `cs` (so `ybar` has `k·q` components):
/// a scan from the end over `(v, M)` pairs composed as
/// `(v₁, M₁) ∘ (v₂, M₂) = (v₂ + M₂·v₁, M₂·M₁)`, blockwise.
fn solve(
    b: &mut Builder,
    ft: PrimType,
    ybar: &[VName],
    cs: &[VName],
    q: usize,
    k: usize,
) -> Vec<VName> {
    let d = q * k;
    let mut rev_in: Vec<VName> = ybar.iter().map(|&y| b.reverse(y)).collect();
    rev_in.extend(cs.iter().map(|&c| b.reverse(c)));
    let mut neutral: Vec<Operand> = vec![delta(ft, false); d];
    neutral.extend((0..q * q).map(|e| delta(ft, e / q == e % q)));
    let scanned = b.scan(&rev_in, neutral, |b, x, y| {
        let (v1, m1) = (&x[..d], &x[d..]);
        let (v2, m2) = (&y[..d], &y[d..]);
        let mut out: Vec<Operand> = vec![];
        // v₂ + M₂·v₁, blockwise
        for blk in 0..k {
            for r in 0..q {
                let mv = (0..q).fold(PExp::from(v2[blk * q + r]), |acc, l| {
                    acc + m2[r * q + l] * v1[blk * q + l]
                });
                out.push(b.expr(mv));
            }
        }
        // M₂·M₁
        for r in 0..q {
            for c in 0..q {
                let mm = (1..q).fold(m2[r * q] * m1[c], |acc, l| {
                    acc + m2[r * q + l] * m1[l * q + c]
                });
                out.push(b.expr(mm));
            }
        }
        out
    });
    scanned[..d].iter().map(|&v| b.reverse(v)).collect()
}

/// The scalar operator inside a vectorised one (`map ⊙'` applied to all
/// parameters), as a lambda on `(x…, y…)`.
fn inner_operator(b: &mut Builder, lam: &Lambda) -> Option<Lambda> {
    let [s] = super::build::essential_stms(&lam.body)[..] else {
        return None;
    };
    let Exp::Soac(Soac::Map(Map {
        lam: inner, arrs, ..
    })) = &s.exp
    else {
        return None;
    };
    let pos: Vec<usize> = arrs
        .iter()
        .map(|&a| {
            let a = super::build::unalias(&lam.body, a);
            lam.params.iter().position(|p| p.name == a)
        })
        .collect::<Option<_>>()?;
    let outs: Vec<Operand> = s.pat.iter().map(|p| p.name.into()).collect();
    let res: Vec<Operand> = lam
        .body
        .result
        .iter()
        .map(|&o| match o {
            Operand::Var(v) => super::build::unalias(&lam.body, v).into(),
            c => c,
        })
        .collect();
    if outs != res || pos.len() != lam.params.len() {
        return None;
    }
    let mut tys = vec![Type::Prim(PrimType::Bool); lam.params.len()];
    for (p, &q) in inner.params.iter().zip(&pos) {
        tys[q] = p.ty.clone();
    }
    Some(b.lambda(tys, |b, ps| {
        let args: Vec<Operand> = pos.iter().map(|&q| ps[q].into()).collect();
        apply_lambda(b, inner, &args)
    }))
}

/// A scan with a vectorised operator is a scan of every column: the rule
/// is applied to the columns of the transposed arrays.
#[allow(clippy::too_many_arguments)]
fn vectorised(
    b: &mut Builder,
    span: Span,
    w: Operand,
    lam: &Lambda,
    ne: &[Operand],
    xs: &[VName],
    ys: &[VName],
    seeds: &[Operand],
    wanted: &[usize],
) -> Result<Vec<VName>> {
    let unsupported = || {
        AdError::new(
            span,
            "reverse AD of a scan whose operator works on arrays is only supported for vectorised (mapped) operators",
        )
    };
    let inner = inner_operator(b, lam).ok_or_else(unsupported)?;
    let k = xs.len();
    let mut ins: Vec<VName> = vec![];
    for &x in xs.iter().chain(ys) {
        ins.push(b.transpose(x));
    }
    // Seeds of the components with adjoints (see `contributions`).
    let float: Vec<bool> = xs
        .iter()
        .enumerate()
        .map(|(j, &x)| super::build::is_float(&b.type_of(x)) || wanted.contains(&j))
        .collect();
    for (j, sd) in seeds.iter().enumerate() {
        if float[j] {
            ins.push(b.transpose(sd.var().expect("array adjoint")));
        }
    }
    for n in ne {
        ins.push(n.var().ok_or_else(unsupported)?);
    }
    let m = b.dim(xs[0], 1);
    let cols = b.try_map_w(m, &ins, |b, p| {
        let (cx, cy) = (&p[..k], &p[k..2 * k]);
        let mut rest = p[2 * k..].iter();
        let cs: Vec<Operand> = float
            .iter()
            .map(|&f| {
                if f {
                    (*rest.next().expect("seed column")).into()
                } else {
                    Operand::i64(0)
                }
            })
            .collect();
        let cn: Vec<Operand> = rest.map(|&v| v.into()).collect();
        let c = contributions(b, span, w, &inner, &cn, cx, cy, &cs, wanted)?;
        Ok(c.into_iter().map(Operand::Var).collect())
    })?;
    Ok(cols.into_iter().map(|c| b.transpose(c)).collect())
}

/// `reverse (scan (+) 0 (reverse ȳ))` with an elementwise `+` on rows.
pub fn suffix_sums(b: &mut Builder, w: Operand, yb: VName) -> VName {
    let rv = b.reverse(yb);
    let ne = zeros_row(b, yb);
    let op = plus_op(b, ne);
    let sc = b.emit1(Scan {
        w,
        op,
        arrs: vec![rv],
    });
    b.reverse(sc)
}
