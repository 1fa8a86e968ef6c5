//! `reduce_by_index` (hist). Special rules (seed 000 §2.5-2.7): `+` (also
//! vectorised) gathers the bucket adjoints; `*` counts zeros per bucket;
//! `min`/`max` find each bucket's winner with an argmin/argmax histogram
//! in which the destination's element wins ties. The generic rule (seed
//! 000 §6.1, errata applied) splits the histogram into `h = hist ne vs`
//! and `ys = map2 ⊙ dst h`, sorts the values by bucket (a radix sort on
//! the significant bits, out-of-bounds keys mapped to one extra bucket),
//! and computes each value's left and right partial results within its
//! bucket with segmented exclusive scans. Out-of-bounds values never get
//! an adjoint.

use super::adjenv::Rev;
use super::build::{apply_lambda, if_, in_bounds, map, select, zeros_row};
use super::reduce::{argminmax_op, check_op_free, classify, flip, middle_adjoint, Special};
use super::reduce::{factor_adjoint, mul_count, zeros_as_ones};
use super::scatter::gather;
use super::vjp_inline;
use crate::{AdError, Result};
use parad_base::{IntType, PrimType};
use parad_core::pexp::{bin, cast, eq, un};
use parad_core::types::BOOL;
use parad_core::*;
use parad_core::{consts, pexp};

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) -> Result<()> {
    let Exp::Soac(Soac::Hist(Hist {
        w,
        dests,
        op,
        inds,
        vals,
    })) = &s.exp
    else {
        unreachable!()
    };
    check_op_free(r, b, &op.lam, s.span)?;
    if inds.len() != 1 {
        return Err(AdError::new(
            s.span,
            "reverse AD of a multi-dimensional reduce_by_index is not supported",
        ));
    }
    let wants_any = vals.iter().chain(dests).any(|&v| r.wants(b, v));
    if !wants_any {
        return Ok(());
    }
    let w = r.po(*w);
    let is = r.p(inds[0]);
    let vs: Vec<VName> = vals.iter().map(|&v| r.p(v)).collect();
    // The destination before the histogram (value semantics: the
    // original array is still readable).
    let dst: Vec<VName> = dests.iter().map(|&d| r.p(d)).collect();
    let seeds: Vec<VName> = s
        .pat
        .iter()
        .map(|p| r.adj_val(b, p.name).var().expect("array adjoint"))
        .collect();
    let m = b.width(dst[0]);
    match classify(&op.lam) {
        Some((Special::Add, _)) => {
            r.add(b, dests[0], seeds[0].into());
            if r.wants(b, vals[0]) {
                let c = gather(b, w, seeds[0], &[is]);
                r.add(b, vals[0], c.into());
            }
            Ok(())
        }
        Some((Special::Mul, 0)) => {
            mul(
                r,
                b,
                w,
                m,
                (dests[0], dst[0]),
                (vals[0], vs[0]),
                is,
                seeds[0],
            );
            Ok(())
        }
        Some((sp @ (Special::Min | Special::Max), 0)) => {
            let (_, win) = arg_hist(b, w, m, dst[0], vs[0], is, sp == Special::Min);
            let db = map(b, m, &[win, seeds[0]], |b, p| {
                vec![select(b, eq(p[0], -1), p[1], 0)]
            });
            r.add(b, dests[0], db[0].into());
            r.add_scatter(b, vals[0], win, seeds[0]);
            Ok(())
        }
        _ => generic(r, b, w, m, op, (dests, &dst), (vals, &vs), is, &seeds),
    }
}

/// Per bucket, the product of the non-zero values and their zero count.
#[allow(clippy::too_many_arguments)]
fn mul(
    r: &mut Rev,
    b: &mut Builder,
    w: Operand,
    m: Operand,
    (dest, dst): (VName, VName),
    (val, vs): (VName, VName),
    is: VName,
    hb: VName,
) {
    let et = b.type_of(vs).elem().expect("array");
    let one = consts::one(et).into();
    let pz = zeros_as_ones(b, w, vs);
    let ones = b.replicate(m, one);
    let zeros = b.replicate(m, Operand::i64(0));
    let ph = b.hist(
        &[ones, zeros],
        vec![one, Operand::i64(0)],
        is,
        &pz,
        mul_count,
    );
    let (nzp, zc) = (ph[0], ph[1]);
    if r.wants(b, dest) {
        let db = map(b, m, &[nzp, zc, hb], |b, p| {
            vec![b.expr(pexp::if_(eq(p[1], 0), p[0], 0) * p[2])]
        });
        r.add(b, dest, db[0].into());
    }
    if r.wants(b, val) {
        let part_bar = map(b, m, &[dst, hb], |b, p| vec![b.expr(p[0] * p[1])])[0];
        let vb = map(b, w, &[is, vs], |b, p| {
            let (i, v) = (p[0], p[1]);
            let ok = in_bounds(b, i.into(), m);
            let r = b.if_(
                ok,
                |b| {
                    let z = b.index(zc, &[i.into()]);
                    let pb = b.index(part_bar, &[i.into()]);
                    let p = b.index(nzp, &[i.into()]);
                    let ppb = b.expr(p * pb);
                    vec![b.expr(factor_adjoint(z.into(), ppb, v.into()))]
                },
                |_| vec![consts::zero(et).into()],
            );
            vec![r[0].into()]
        });
        r.add(b, val, vb[0].into());
    }
}

/// Each bucket's extremum and the index of the value that attains it
/// (-1: the destination's element, which wins ties; lower indices win
/// ties among values).
pub fn arg_hist(
    b: &mut Builder,
    w: Operand,
    m: Operand,
    dst: VName,
    vs: VName,
    is: VName,
    min: bool,
) -> (VName, VName) {
    let d = b.copy(dst);
    let minus = b.replicate(m, Operand::i64(-1));
    let iota = b.iota(w);
    let et = b.type_of(dst).elem().expect("array");
    let ne = consts::extreme(et, min).into();
    let r = b.hist(
        &[d, minus],
        vec![ne, Operand::i64(-1)],
        is,
        &[vs, iota],
        |b, x, y| argminmax_op(b, x, y, min),
    );
    (r[0], r[1])
}

/// A permutation that sorts `keys` (values in `0..=m`) stably: a radix
/// sort on the significant bits of `m`, one bit per pass.
pub fn sort_by_key(b: &mut Builder, w: Operand, m: Operand, keys: VName) -> VName {
    let nbits = b.expr(64 - cast(PrimType::Int(IntType::I64), un(UnOp::Clz, m)));
    let perm0 = b.iota(w);
    let out = b.loop_for(&[perm0.into()], nbits, |b, bit, perm| {
        let perm = perm[0];
        let bits = map(b, w, &[perm], |b, p| {
            let k = b.index(keys, &[p[0].into()]);
            vec![b.expr(bin(BinOp::AShr, k, bit) & 1)]
        })[0];
        let zflags = map(b, w, &[bits], |b, x| vec![b.expr(1 - x[0])])[0];
        let sum = |b: &mut Builder, x: &[VName], y: &[VName]| vec![b.expr(x[0] + y[0])];
        let zpos = b.scan(&[zflags], vec![Operand::i64(0)], sum)[0];
        let opos = b.scan(&[bits], vec![Operand::i64(0)], sum)[0];
        let nz = b.reduce_op(BinOp::Add, &[zflags], vec![Operand::i64(0)])[0];
        let pos = map(b, w, &[bits, zpos, opos], |b, p| {
            vec![select(b, eq(p[0], 0), p[1] - 1, nz + p[2] - 1)]
        })[0];
        let dst = b.scratch(PrimType::Int(IntType::I64), vec![w]);
        vec![b.scatter(dst, pos, perm).into()]
    });
    out[0]
}

/// The segmented version of operator `lam` on `(flag, x…)` tuples: a set
/// flag starts a new segment.
fn segmented(b: &mut Builder, lam: &Lambda, tys: &[Type]) -> Lambda {
    let k = tys.len();
    let mut all = vec![BOOL];
    all.extend(tys.iter().cloned());
    all.push(BOOL);
    all.extend(tys.iter().cloned());
    let tys = tys.to_vec();
    b.lambda(all, |b, p| {
        let (f1, x1) = (p[0], &p[1..1 + k]);
        let (f2, x2) = (p[1 + k], &p[2 + k..]);
        let f = b.binop(BinOp::Or, f1, f2);
        let args: Vec<Operand> = x1.iter().chain(x2).map(|&v| v.into()).collect();
        let x2o: Vec<Operand> = x2.iter().map(|&v| v.into()).collect();
        let r = if_(b, f2, tys, |_| x2o, |b| apply_lambda(b, lam, &args));
        std::iter::once(Operand::from(f))
            .chain(r.into_iter().map(Operand::Var))
            .collect()
    })
}

/// Exclusive segmented scan of `xs` (segments start where `flags` is set).
fn seg_scan_exclusive(
    b: &mut Builder,
    w: Operand,
    lam: &Lambda,
    ne: &[Operand],
    flags: VName,
    xs: &[VName],
) -> Vec<VName> {
    let tys: Vec<Type> = xs
        .iter()
        .map(|&x| b.type_of(x).row().expect("row"))
        .collect();
    let seg = segmented(b, lam, &tys);
    let mut neutral = vec![Operand::bool(false)];
    neutral.extend(ne.iter().copied());
    let mut arrs = vec![flags];
    arrs.extend(xs);
    let inc = b.emit_as(
        "segscan",
        Exp::Soac(Soac::Scan(Scan {
            w,
            op: AccOp { lam: seg, neutral },
            arrs,
        })),
    );
    let iota = b.iota(w);
    let ne = ne.to_vec();
    map(b, w, &[iota, flags], |b, p| {
        let (i, f) = (p[0], p[1]);
        let inc = inc.clone();
        if_(
            b,
            f,
            tys,
            |_| ne,
            |b| {
                let j = b.sub(i, Operand::i64(1));
                inc[1..]
                    .iter()
                    .map(|&a| b.index(a, &[j.into()]).into())
                    .collect()
            },
        )
        .into_iter()
        .map(Operand::Var)
        .collect()
    })
}

#[allow(clippy::too_many_arguments)]
fn generic(
    r: &mut Rev,
    b: &mut Builder,
    w: Operand,
    m: Operand,
    op: &AccOp,
    (dests, dst): (&[VName], &[VName]),
    (vals, vs): (&[VName], &[VName]),
    is: VName,
    seeds: &[VName],
) -> Result<()> {
    let k = vals.len();
    let ne: Vec<Operand> = op.neutral.iter().map(|&o| r.po(o)).collect();
    let lam = &op.lam;
    let row_tys: Vec<Type> = vs
        .iter()
        .map(|&v| b.type_of(v).row().expect("row"))
        .collect();
    // h = hist (replicate m ne) ⊙ is vs, so that ys = map2 ⊙ dst h.
    let fresh: Vec<VName> = ne.iter().map(|&n| b.replicate(m, n)).collect();
    let op_copy = super::build::rename_op(b, op, &ne);
    let h = b.emit_as(
        "hpart",
        Exp::Soac(Soac::Hist(Hist {
            w,
            dests: fresh,
            op: op_copy,
            inds: vec![is],
            vals: vs.to_vec(),
        })),
    );
    // dst̄ and h̄ from the vjp of ⊙ at each bucket.
    let mut ins: Vec<VName> = dst.to_vec();
    ins.extend(&h);
    ins.extend(seeds);
    let both = b.try_map_w(m, &ins, |b, p| {
        let args: Vec<Operand> = p[..2 * k].iter().map(|&v| v.into()).collect();
        let sd: Vec<Operand> = p[2 * k..].iter().map(|&v| v.into()).collect();
        let tys: Vec<Type> = row_tys.iter().chain(&row_tys).cloned().collect();
        let f = b.lambda(tys, |b, x| {
            let a: Vec<Operand> = x.iter().map(|&v| v.into()).collect();
            apply_lambda(b, lam, &a)
        });
        Ok(vjp_inline(b, &f, &args, &sd)?.1)
    })?;
    for j in 0..k {
        r.add(b, dests[j], both[j].into());
    }
    let hbar = &both[k..];
    if !vals.iter().any(|&v| r.wants(b, v)) {
        return Ok(());
    }
    // Sort the values by bucket; out-of-bounds keys go to bucket m.
    let keys = map(b, w, &[is], |b, i| {
        let ok = in_bounds(b, i[0].into(), m);
        vec![select(b, ok, i[0], m)]
    })[0];
    let perm = sort_by_key(b, w, m, keys);
    let sis = gather(b, w, keys, &[perm]);
    let svs: Vec<VName> = vs.iter().map(|&v| gather(b, w, v, &[perm])).collect();
    let iota = b.iota(w);
    let flags = map(b, w, &[iota], |b, i| {
        let i = i[0];
        let first = b.cmp(CmpOp::Eq, i, Operand::i64(0));
        let r = if_(
            b,
            first,
            vec![BOOL],
            |_| vec![Operand::bool(true)],
            |b| {
                let j = b.sub(i, Operand::i64(1));
                let a = b.index(sis, &[i.into()]);
                let c = b.index(sis, &[j.into()]);
                vec![b.cmp(CmpOp::Ne, a, c).into()]
            },
        );
        vec![r[0].into()]
    })[0];
    // Flags of the reversed array: reversed position i is the original
    // index w-1-i, which ends its segment if it is last or flag[w-i].
    let rflags = map(b, w, &[iota], |b, i| {
        let i = i[0];
        let first = b.cmp(CmpOp::Eq, i, Operand::i64(0));
        let r = if_(
            b,
            first,
            vec![BOOL],
            |_| vec![Operand::bool(true)],
            |b| {
                let j = b.sub(w, i);
                vec![b.index(flags, &[j.into()]).into()]
            },
        );
        vec![r[0].into()]
    })[0];
    let ls = seg_scan_exclusive(b, w, lam, &ne, flags, &svs);
    let rsv: Vec<VName> = svs.iter().map(|&v| b.reverse(v)).collect();
    let flipped = flip(b, lam);
    let rs_rev = seg_scan_exclusive(b, w, &flipped, &ne, rflags, &rsv);
    let rs: Vec<VName> = rs_rev.iter().map(|&v| b.reverse(v)).collect();
    let wanted: Vec<usize> = (0..k).filter(|&j| r.wants(b, vals[j])).collect();
    let mut ins = vec![sis];
    ins.extend(&ls);
    ins.extend(&svs);
    ins.extend(&rs);
    let sbar = b.try_map_w(w, &ins, |b, p| {
        let key = p[0];
        let (l, a, rr) = (&p[1..1 + k], &p[1 + k..1 + 2 * k], &p[1 + 2 * k..]);
        let ok = b.cmp(CmpOp::Lt, key, m);
        let tys = row_tys.clone();
        let sd: Vec<Operand> = if_(
            b,
            ok,
            tys.clone(),
            |b| {
                hbar.iter()
                    .map(|&hb| b.index(hb, &[key.into()]).into())
                    .collect()
            },
            |b| hbar.iter().map(|&hb| zeros_row(b, hb)).collect(),
        )
        .into_iter()
        .map(Operand::Var)
        .collect();
        middle_adjoint(b, lam, (l, a, rr), &sd, &wanted)
    })?;
    for (&j, &sb) in wanted.iter().zip(&sbar) {
        // Un-permute: perm is a permutation, so the scatter writes every
        // position once.
        let et = b.type_of(sb).elem().expect("array");
        let rank = b.type_of(sb).rank();
        let mut shape = vec![w];
        for d in 1..rank {
            shape.push(b.dim(sb, d));
        }
        let dst = b.scratch(et, shape);
        let c = b.scatter(dst, perm, sb);
        r.add(b, vals[j], c.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_base::FloatType;
    use parad_core::builder::Ctx;
    use parad_core::types::I64;
    use parad_values::Scalar;

    /// The neutral element of the argmin/argmax histogram, for each type.
    fn arg_hist_neutral(t: PrimType, min: bool) -> Operand {
        let mut ctx = Ctx::default();
        let (m, n) = (ctx.names.fresh("m"), ctx.names.fresh("n"));
        for v in [m, n] {
            ctx.types.insert(v, I64);
        }
        let mut arr = |name: &str, elem: PrimType, len: VName| {
            let v = ctx.names.fresh(name);
            ctx.types.insert(v, Type::array(elem, vec![len.into()]));
            v
        };
        let dst = arr("dst", t, m);
        let vs = arr("vs", t, n);
        let is = arr("is", PrimType::Int(IntType::I64), n);
        let mut b = Builder::new(&mut ctx);
        arg_hist(&mut b, n.into(), m.into(), dst, vs, is, min);
        let stms = b.finish();
        let hist = stms.iter().find_map(|s| match &s.exp {
            Exp::Soac(Soac::Hist(h)) => Some(h),
            _ => None,
        });
        hist.expect("a histogram").op.neutral[0]
    }

    #[test]
    fn arg_hist_neutral_elements_are_the_exact_extremes() {
        let cases = [
            (IntType::U64, Scalar::U64(u64::MAX), Scalar::U64(0)),
            (IntType::I64, Scalar::I64(i64::MAX), Scalar::I64(i64::MIN)),
            (IntType::U8, Scalar::U8(u8::MAX), Scalar::U8(0)),
            (IntType::I8, Scalar::I8(i8::MAX), Scalar::I8(i8::MIN)),
        ];
        for (it, hi, lo) in cases {
            let t = PrimType::Int(it);
            assert_eq!(arg_hist_neutral(t, true), hi.into(), "min on {t}");
            assert_eq!(arg_hist_neutral(t, false), lo.into(), "max on {t}");
        }
        let f32 = PrimType::Float(FloatType::F32);
        assert_eq!(arg_hist_neutral(f32, true), Operand::f32(f32::INFINITY));
        assert_eq!(
            arg_hist_neutral(f32, false),
            Operand::f32(f32::NEG_INFINITY)
        );
    }
}
