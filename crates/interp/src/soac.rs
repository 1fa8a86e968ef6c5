//! The SOACs, run sequentially: map, reduce, scan, hist, scatter, and
//! accumulators (withacc/upd). Reductions and histogram buckets combine
//! their elements in a balanced tree (in order), as a parallel backend
//! does, rather than from left to right; scans go from left to right.

use crate::error::{shape_str, Msg, RunError};
use crate::eval::{at, release, Env, Interp};
use crate::prim;
use crate::value::{extend, set, write_range, Acc, Array, Val};
use parad_base::{PrimType, Span};
use parad_core::{
    AccInput, AccOp, BasicOp, BinOp, Dim, Exp, Lambda, Operand, ScatterDest, Screma, Type, VName,
};
use parad_values::ArrayData;
use std::rc::Rc;

/// The number of rows a reduction folds sequentially before combining
/// partial results pairwise.
const REDUCE_BLOCK: usize = 1024;

/// The operator and type of a lambda `\(x, y) -> x op y` on scalars.
fn simple_binop(lam: &Lambda) -> Option<(BinOp, PrimType, Span)> {
    let ([x, y], [stm], [Operand::Var(r)]) =
        (&lam.params[..], &lam.body.stms[..], &lam.body.result[..])
    else {
        return None;
    };
    match (&stm.exp, &stm.pat[..]) {
        (Exp::Basic(BasicOp::BinOp(op, t, Operand::Var(a), Operand::Var(b))), [p])
            if *a == x.name && *b == y.name && p.name == *r =>
        {
            Some((*op, *t, stm.span))
        }
        _ => None,
    }
}

/// Collects per-iteration results into an array with outer size `w`.
struct Stack {
    shape: Option<Vec<usize>>,
    data: Option<ArrayData>,
}

impl Stack {
    fn push(&mut self, v: &Val) -> Result<(), Msg> {
        let (shape, data) = v.flat()?;
        match (&self.shape, &mut self.data) {
            (Some(s), Some(d)) => {
                if *s != shape {
                    return Err(format!(
                        "Cannot build an array from rows of shapes {} and {}",
                        shape_str(s),
                        shape_str(&shape)
                    ));
                }
                extend(d, &data)
            }
            _ => {
                self.shape = Some(shape);
                self.data = Some(data.into_owned());
                Ok(())
            }
        }
    }

    /// The array of the pushed rows; `ty` gives the row shape when none were.
    fn finish(self, w: usize, ty: &Type, env: &Env) -> Val {
        let row_shape = self.shape.unwrap_or_else(|| {
            ty.shape()
                .iter()
                .map(|d| match d {
                    Dim::Const(c) => (*c).max(0) as usize,
                    Dim::Var(v) => match env.get(v) {
                        Some(Val::Scalar(s)) => prim::as_i64(*s).unwrap_or(0).max(0) as usize,
                        _ => 0,
                    },
                    Dim::Ext => 0,
                })
                .collect()
        });
        let elem = ty.elem().unwrap_or(parad_base::PrimType::Bool);
        let data = self.data.unwrap_or_else(|| ArrayData::empty(elem));
        let mut shape = vec![w];
        shape.extend(row_shape);
        Val::Array(Array::new(shape, data))
    }
}

fn width(n: i64, span: Span) -> Result<usize, RunError> {
    usize::try_from(n).map_err(|_| RunError::new(format!("negative SOAC width {n}"), Some(span)))
}

/// Checks that an input array has outer size `w`.
fn outer(a: &Array, w: usize, what: &str, span: Span) -> Result<(), RunError> {
    if a.shape.first() != Some(&w) {
        return Err(RunError::new(
            format!(
                "Sizes do not match: {what} of width {w} over an array of shape {}",
                shape_str(&a.shape)
            ),
            Some(span),
        ));
    }
    Ok(())
}

/// The row-major number of the element block at `idx` (into the first
/// `idx.len()` dimensions of `shape`), or `None` when out of bounds.
fn bucket(shape: &[usize], idx: &[i64]) -> Option<usize> {
    let mut b = 0usize;
    for (&i, &d) in idx.iter().zip(shape) {
        if i < 0 || i as usize >= d {
            return None;
        }
        b = b * d + i as usize;
    }
    Some(b)
}

/// A copy of element block `b` of `a`, a plain array (a scalar if `a`'s
/// indexed dimensions, the first `k`, are all of them); a copy, so that
/// `a` stays unshared for the in-place update that follows.
fn block(a: &Array, k: usize, b: usize) -> Result<Val, Msg> {
    if k == a.rank() {
        return Ok(Val::Scalar(
            a.get(b).unwrap_or(parad_values::Scalar::Bool(false)),
        ));
    }
    let shape = a.shape[k..].to_vec();
    let inner: usize = shape.iter().product();
    let (offset, strides) = a.layout();
    debug_assert!(a.is_plain() && offset == 0);
    let view = a.view_of(shape.clone(), b * inner, strides[k..].to_vec());
    Ok(Val::Array(Array::new(shape, view.to_data()?)))
}

/// Copies of element block `b` of each of `arrs`.
fn blocks(arrs: &[Array], k: usize, b: usize, span: Span) -> Result<Vec<Val>, RunError> {
    arrs.iter().map(|a| at(block(a, k, b), span)).collect()
}

/// Writes `vals` into element block `b` of each of `arrs` (their first
/// `k` dimensions index the blocks), in place when unshared.
fn write_blocks(
    arrs: &mut [Array],
    k: usize,
    b: usize,
    vals: &[Val],
    copies: &crate::value::CopyCounter,
    span: Span,
) -> Result<(), RunError> {
    for (a, v) in arrs.iter_mut().zip(vals) {
        let shape = a.shape[k..].to_vec();
        let off = b * shape.iter().product::<usize>();
        at(
            a.data_mut(copies)
                .and_then(|d| write_block(d, off, &shape, v)),
            span,
        )?;
    }
    Ok(())
}

/// The values a histogram bucket receives beyond its first
/// `REDUCE_BLOCK`, combined in a balanced tree: blocks of `REDUCE_BLOCK`
/// values are folded left to right, and finished blocks are combined
/// pairwise like the digits of a binary counter.
#[derive(Default)]
struct Partial {
    /// The fold of the current block, and its number of values.
    cur: Option<Vec<Val>>,
    len: usize,
    /// Finished subtrees, oldest first, with their heights.
    done: Vec<(u32, Vec<Val>)>,
}

/// Writes a value into the element block at row-major position `off`.
fn write_block(d: &mut ArrayData, off: usize, shape: &[usize], v: &Val) -> Result<(), Msg> {
    let (vs, vd) = v.flat()?;
    if vs != shape {
        return Err(format!(
            "Cannot write value of shape {} to element of shape {}",
            shape_str(&vs),
            shape_str(shape)
        ));
    }
    match (shape.is_empty(), vd.get(0)) {
        (true, Some(s)) => set(d, off, s),
        _ => write_range(d, off, &vd),
    }
}

impl Interp<'_> {
    fn arrays(
        &self,
        env: &Env,
        vs: &[VName],
        w: usize,
        what: &str,
        span: Span,
    ) -> Result<Vec<Array>, RunError> {
        vs.iter()
            .map(|v| {
                let a = self.array(env, *v, span)?;
                outer(&a, w, what, span)?;
                Ok(a)
            })
            .collect()
    }

    /// Applies a lambda to argument values.
    pub(crate) fn apply(
        &mut self,
        env: &mut Env,
        lam: &Lambda,
        args: Vec<Val>,
    ) -> Result<Vec<Val>, RunError> {
        let names: Vec<VName> = lam.params.iter().map(|p| p.name).collect();
        for (p, v) in names.iter().zip(args) {
            env.insert(*p, v);
        }
        self.body(env, &lam.body, &names)
    }

    pub(crate) fn map(
        &mut self,
        env: &mut Env,
        w: &Operand,
        lam: &Lambda,
        arrs: &[VName],
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let w = width(self.int(env, w, span)?, span)?;
        let inputs: Vec<Val> = arrs
            .iter()
            .map(|v| self.get(env, *v, span))
            .collect::<Result<_, _>>()?;
        release(env, early);
        // Accumulator inputs are moved (not shared) and threaded through
        // the iterations; the others are read row by row.
        let (mut accs, inputs): (Vec<Val>, Vec<Val>) =
            inputs.into_iter().partition(|v| matches!(v, Val::Acc(_)));
        for v in &inputs {
            match v {
                Val::Array(a) => outer(a, w, "map", span)?,
                _ => {
                    return Err(RunError::new(
                        "internal error: map over a scalar",
                        Some(span),
                    ))
                }
            }
        }
        let mut stacks: Vec<Stack> = lam
            .ret
            .iter()
            .map(|_| Stack {
                shape: None,
                data: None,
            })
            .collect();
        for i in 0..w {
            let mut arrays = inputs.iter();
            let mut acc_slots = std::mem::take(&mut accs).into_iter();
            let args: Vec<Val> = lam
                .params
                .iter()
                .map(|p| match &p.ty {
                    Type::Acc(_) => acc_slots.next().unwrap_or(missing()),
                    _ => match arrays.next() {
                        Some(Val::Array(a)) => a.row(i),
                        _ => missing(),
                    },
                })
                .collect();
            let res = self.apply(env, lam, args)?;
            for ((r, t), st) in res.into_iter().zip(&lam.ret).zip(&mut stacks) {
                if t.is_acc() {
                    accs.push(r);
                } else {
                    at(st.push(&r), span)?;
                }
            }
        }
        let mut accs = accs.into_iter();
        Ok(lam
            .ret
            .iter()
            .zip(stacks)
            .map(|(t, st)| {
                if t.is_acc() {
                    accs.next().unwrap_or(missing())
                } else {
                    st.finish(w, t, env)
                }
            })
            .collect())
    }

    fn neutral(&self, env: &Env, op: &AccOp, span: Span) -> Result<Vec<Val>, RunError> {
        op.neutral
            .iter()
            .map(|o| self.operand(env, o, span))
            .collect()
    }

    pub(crate) fn reduce(
        &mut self,
        env: &mut Env,
        w: &Operand,
        op: &AccOp,
        arrs: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let w = width(self.int(env, w, span)?, span)?;
        let xs = self.arrays(env, arrs, w, "reduce", span)?;
        self.reduce_arrays(env, op, &xs, w, span)
    }

    fn reduce_arrays(
        &mut self,
        env: &mut Env,
        op: &AccOp,
        xs: &[Array],
        w: usize,
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        self.reduce_range(env, op, xs, 0, w, span)
    }

    /// Reduces rows `lo..hi` of `xs` in a balanced tree, as a parallel
    /// reduction does: halves are reduced separately and then combined
    /// (left with right, so that the operator need not be commutative),
    /// down to blocks of `REDUCE_BLOCK` rows folded from left to right.
    /// Summing floats this way keeps the rounding error small (the sum of
    /// 2^25 ones in `f32` is exact, where a sequential fold stops at 2^24).
    fn reduce_range(
        &mut self,
        env: &mut Env,
        op: &AccOp,
        xs: &[Array],
        lo: usize,
        hi: usize,
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        if hi - lo <= REDUCE_BLOCK {
            let mut acc = self.neutral(env, op, span)?;
            if let ([Val::Scalar(a)], [x], Some((bop, t, stm_span))) =
                (&acc[..], xs, simple_binop(&op.lam))
            {
                // A scalar operator such as `+`: applied directly, which
                // is the same computation without the environment.
                let mut a = *a;
                for i in lo..hi {
                    let y = x.get(i).ok_or_else(|| {
                        RunError::new("internal error: reduce input too short", Some(span))
                    })?;
                    a = at(prim::binop(bop, t, a, y), stm_span)?;
                }
                return Ok(vec![Val::Scalar(a)]);
            }
            for i in lo..hi {
                acc.extend(xs.iter().map(|a| a.row(i)));
                acc = self.apply(env, &op.lam, acc)?;
            }
            return Ok(acc);
        }
        let mid = lo + (hi - lo) / 2;
        let mut left = self.reduce_range(env, op, xs, lo, mid, span)?;
        let right = self.reduce_range(env, op, xs, mid, hi, span)?;
        left.extend(right);
        self.apply(env, &op.lam, left)
    }

    pub(crate) fn scan(
        &mut self,
        env: &mut Env,
        w: &Operand,
        op: &AccOp,
        arrs: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let w = width(self.int(env, w, span)?, span)?;
        let xs = self.arrays(env, arrs, w, "scan", span)?;
        self.scan_arrays(env, op, &xs, w, span)
    }

    fn scan_arrays(
        &mut self,
        env: &mut Env,
        op: &AccOp,
        xs: &[Array],
        w: usize,
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let mut acc = self.neutral(env, op, span)?;
        let mut stacks: Vec<Stack> = op
            .lam
            .ret
            .iter()
            .map(|_| Stack {
                shape: None,
                data: None,
            })
            .collect();
        for i in 0..w {
            acc.extend(xs.iter().map(|a| a.row(i)));
            acc = self.apply(env, &op.lam, acc)?;
            for (st, v) in stacks.iter_mut().zip(&acc) {
                at(st.push(v), span)?;
            }
        }
        Ok(stacks
            .into_iter()
            .zip(&op.lam.ret)
            .map(|(st, t)| st.finish(w, t, env))
            .collect())
    }

    /// `screma`: the map function's results feed the scans, then the
    /// reductions; the rest are returned as mapped arrays.
    pub(crate) fn screma(
        &mut self,
        env: &mut Env,
        sc: &Screma,
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        // `map` releases the names that die here: the width is read
        // before, and names of neutral elements (read after) are kept.
        let w = width(self.int(env, &sc.w, span)?, span)?;
        let ops = || sc.scans.iter().chain(sc.reds.iter().map(|r| &r.op));
        let neutral: Vec<VName> = ops()
            .flat_map(|op| op.neutral.iter().filter_map(|o| o.var()))
            .collect();
        let (late, early): (Vec<VName>, Vec<VName>) =
            early.iter().partition(|v| neutral.contains(v));
        let mapped = self.map(env, &sc.w, &sc.lam, &sc.arrs, &early, span)?;
        let mut mapped = mapped.into_iter();
        let mut take = |k: usize| -> Result<Vec<Array>, RunError> {
            mapped
                .by_ref()
                .take(k)
                .map(|v| match v {
                    Val::Array(a) => Ok(a),
                    _ => Err(RunError::new(
                        "internal error: screma operator input is not an array",
                        Some(span),
                    )),
                })
                .collect()
        };
        let mut out = vec![];
        for op in &sc.scans {
            let xs = take(op.neutral.len())?;
            out.extend(self.scan_arrays(env, op, &xs, w, span)?);
        }
        for r in &sc.reds {
            let xs = take(r.op.neutral.len())?;
            out.extend(self.reduce_arrays(env, &r.op, &xs, w, span)?);
        }
        release(env, &late);
        out.extend(mapped);
        Ok(out)
    }

    fn indices(&self, inds: &[Array], i: usize) -> Vec<i64> {
        inds.iter()
            .map(|a| a.get(i).and_then(prim::as_i64).unwrap_or(-1))
            .collect()
    }

    /// Adds the next value of a histogram bucket to its partial result.
    fn partial_add(
        &mut self,
        env: &mut Env,
        op: &AccOp,
        p: &mut Partial,
        vals: Vec<Val>,
    ) -> Result<(), RunError> {
        let cur = match p.cur.take() {
            None => vals,
            Some(mut c) => {
                c.extend(vals);
                self.apply(env, &op.lam, c)?
            }
        };
        p.len += 1;
        if p.len < REDUCE_BLOCK {
            p.cur = Some(cur);
            return Ok(());
        }
        p.len = 0;
        let (mut height, mut tree) = (0, cur);
        while let Some((h, _)) = p.done.last() {
            if *h != height {
                break;
            }
            let (_, mut left) = p.done.pop().unwrap_or_default();
            left.extend(tree);
            tree = self.apply(env, &op.lam, left)?;
            height += 1;
        }
        p.done.push((height, tree));
        Ok(())
    }

    /// The combination of all values added to a partial result, in order
    /// (`None` if there were none).
    fn partial_finish(
        &mut self,
        env: &mut Env,
        op: &AccOp,
        p: Partial,
    ) -> Result<Option<Vec<Val>>, RunError> {
        let mut acc = p.cur;
        for (_, mut left) in p.done.into_iter().rev() {
            acc = Some(match acc {
                None => left,
                Some(right) => {
                    left.extend(right);
                    self.apply(env, &op.lam, left)?
                }
            });
        }
        Ok(acc)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hist(
        &mut self,
        env: &mut Env,
        w: &Operand,
        dests: &[VName],
        op: &AccOp,
        inds: &[VName],
        vals: &[VName],
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let w = width(self.int(env, w, span)?, span)?;
        let is = self.arrays(env, inds, w, "hist", span)?;
        let vs = self.arrays(env, vals, w, "hist", span)?;
        let mut ds: Vec<Array> = dests
            .iter()
            .map(|d| self.array(env, *d, span))
            .collect::<Result<_, _>>()?;
        release(env, early);
        for d in &mut ds {
            at(d.own(&self.copies), span)?;
        }
        let k = inds.len();
        for d in &ds {
            if d.rank() < k || d.shape[..k] != ds[0].shape[..k] {
                return Err(RunError::new(
                    format!(
                        "Sizes do not match: histogram destinations of shapes {} and {}",
                        shape_str(&ds[0].shape),
                        shape_str(&d.shape)
                    ),
                    Some(span),
                ));
            }
        }
        // Each bucket folds its first `REDUCE_BLOCK` values into the
        // destination in place, and combines the rest in a balanced tree
        // (`Partial`), as a parallel histogram does: a sum of many floats
        // in one bucket keeps a small rounding error. The operator is
        // associative, and every combination keeps the input order.
        let nb: usize = ds[0].shape[..k].iter().product();
        let mut hits: Vec<u32> = Vec::new();
        hits.try_reserve_exact(nb)
            .map_err(|_| RunError::new(crate::value::out_of_memory(nb, 4), Some(span)))?;
        hits.resize(nb, 0);
        let mut partials: rustc_hash::FxHashMap<usize, Partial> = Default::default();
        for i in 0..w {
            let idx = self.indices(&is, i);
            let Some(b) = bucket(&ds[0].shape, &idx) else {
                continue;
            };
            let vals: Vec<Val> = vs.iter().map(|a| a.row(i)).collect();
            if (hits[b] as usize) < REDUCE_BLOCK {
                hits[b] += 1;
                let mut args = blocks(&ds, k, b, span)?;
                args.extend(vals);
                let new = self.apply(env, &op.lam, args)?;
                write_blocks(&mut ds, k, b, &new, &self.copies, span)?;
            } else {
                let p = partials.entry(b).or_default();
                self.partial_add(env, op, p, vals)?;
            }
        }
        let mut rest: Vec<(usize, Partial)> = partials.into_iter().collect();
        rest.sort_by_key(|(b, _)| *b);
        for (b, p) in rest {
            if let Some(tail) = self.partial_finish(env, op, p)? {
                let mut args = blocks(&ds, k, b, span)?;
                args.extend(tail);
                let new = self.apply(env, &op.lam, args)?;
                write_blocks(&mut ds, k, b, &new, &self.copies, span)?;
            }
        }
        Ok(ds.into_iter().map(Val::Array).collect())
    }

    pub(crate) fn scatter(
        &mut self,
        env: &mut Env,
        w: &Operand,
        dests: &[ScatterDest],
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let w = width(self.int(env, w, span)?, span)?;
        let mut work = vec![];
        for d in dests {
            let is = self.arrays(env, &d.inds, w, "scatter", span)?;
            let vs = self.arrays(env, &[d.vals], w, "scatter", span)?.remove(0);
            let arr = self.array(env, d.arr, span)?;
            work.push((arr, is, vs));
        }
        release(env, early);
        let mut out = vec![];
        for (mut arr, is, vs) in work {
            let k = is.len();
            let shape = arr.shape.get(k..).unwrap_or(&[]).to_vec();
            for i in 0..w {
                let idx = self.indices(&is, i);
                if let Some(off) =
                    bucket(&arr.shape, &idx).map(|b| b * shape.iter().product::<usize>())
                {
                    at(
                        arr.data_mut(&self.copies)
                            .and_then(|d| write_block(d, off, &shape, &vs.row(i))),
                        span,
                    )?;
                }
            }
            out.push(Val::Array(arr));
        }
        Ok(out)
    }

    pub(crate) fn withacc(
        &mut self,
        env: &mut Env,
        inputs: &[AccInput],
        lam: &Lambda,
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let mut accs = vec![];
        for i in inputs {
            let mut arrays: Vec<Array> = i
                .arrs
                .iter()
                .map(|a| self.array(env, *a, span))
                .collect::<Result<_, _>>()?;
            for a in &mut arrays {
                at(a.own(&self.copies), span)?;
            }
            let op = i.op.as_ref().map(|o| {
                self.acc_ops
                    .entry(o as *const AccOp)
                    .or_insert_with(|| Rc::new(o.clone()))
                    .clone()
            });
            accs.push(Val::Acc(Acc {
                arrays,
                ispace_rank: i.ispace.len(),
                op,
            }));
        }
        release(env, early);
        let res = self.apply(env, lam, accs)?;
        let mut out = vec![];
        for r in &res[..inputs.len()] {
            match r {
                Val::Acc(a) => out.extend(a.arrays.iter().cloned().map(Val::Array)),
                _ => {
                    return Err(RunError::new(
                        "internal error: withacc lambda did not return an accumulator",
                        Some(span),
                    ))
                }
            }
        }
        out.extend(res.into_iter().skip(inputs.len()));
        Ok(out)
    }

    pub(crate) fn upd(
        &mut self,
        env: &mut Env,
        acc: VName,
        inds: &[Operand],
        vals: &[Operand],
        early: &[VName],
        span: Span,
    ) -> Result<Vec<Val>, RunError> {
        let idx: Vec<i64> = inds
            .iter()
            .map(|o| self.int(env, o, span))
            .collect::<Result<_, _>>()?;
        let new: Vec<Val> = vals
            .iter()
            .map(|o| self.operand(env, o, span))
            .collect::<Result<_, _>>()?;
        let Val::Acc(mut a) = self.get(env, acc, span)? else {
            return Err(RunError::new(
                "internal error: upd of a non-accumulator",
                Some(span),
            ));
        };
        release(env, early);
        let k = a.ispace_rank;
        let Some(b) = a.arrays.first().and_then(|x| bucket(&x.shape, &idx)) else {
            return Ok(vec![Val::Acc(a)]);
        };
        let combined = match a.op.clone() {
            None => new,
            Some(op) => {
                let mut args = blocks(&a.arrays, k, b, span)?;
                args.extend(new);
                self.apply(env, &op.lam, args)?
            }
        };
        write_blocks(&mut a.arrays, k, b, &combined, &self.copies, span)?;
        Ok(vec![Val::Acc(a)])
    }
}

/// A placeholder for a value the checker guarantees exists.
fn missing() -> Val {
    Val::Scalar(parad_values::Scalar::Bool(false))
}
