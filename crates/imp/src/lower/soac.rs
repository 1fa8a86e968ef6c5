//! SOACs. Inside a thread every SOAC is a sequential loop. At the top
//! level of a function:
//!
//! - a map (a `screma` without scans or reductions) is a parallel loop
//!   over its rows, each writing its own row of the results;
//! - reductions run per chunk of rows (one chunk per thread, in order),
//!   then the chunk results are combined in order, so the operator need
//!   not be commutative;
//! - scans in three phases: each chunk scanned on its own, an exclusive
//!   scan of the chunk totals, then each chunk but the first combined
//!   with its prefix;
//! - `hist` with per-chunk sub-histograms merged bin by bin when the
//!   histogram is small next to the input, atomic updates otherwise
//!   (an atomic add for `+`, a compare-and-swap loop for other operators
//!   on one array, a lock for operators on several);
//! - `scatter` as parallel writes;
//! - accumulators passed to a parallel map are updated atomically, in
//!   the same three ways.

use super::array::{row_val, Arr};
use super::control::Merge;
use super::iota::Iota;
use super::{unsupported, Acc, AccMode, Lower, Result, Val};
use crate::ir::{Code, Exp, I64};
use parad_base::{PrimType, Scalar, Span};
use parad_core::{
    AccOp, BasicOp, BinOp, CmpOp, ConvOp, Hist, Lambda, Map, Operand, Param, Reduce, Reduction,
    Scan, Scatter, Screma, Soac, Type, VName, WithAcc,
};

/// Accumulators passed to a parallel map get per-thread copies when their
/// elements times the threads are at most this many.
const PRIVATE_ACC_MAX: i64 = 1 << 22;

/// A flat parallel loop needs its rows times its function's statements
/// to reach this.
const PAR_MIN_WORK: i64 = 1 << 14;

/// A parallel loop whose function has SOACs or loops needs its rows times
/// its function's statements to reach this.
const PAR_MIN_NESTED_WORK: i64 = 1 << 11;

/// How many levels of a nest get a sequential version whose SOACs may
/// run in parallel.
const MAX_VERSION_DEPTH: u32 = 1;

/// Scatters narrower than this run sequentially (see [`Lower::scatter`]).
const PAR_SCATTER_MIN: i64 = 1 << 16;

/// An input of a screma: rows of an array, the elements of an iota that
/// is not stored, or an accumulator passed whole.
#[derive(Clone, Debug)]
enum Input {
    Rows(Arr),
    Iota(Iota),
    Acc(usize),
}

impl Input {
    /// The argument that row `i` gives the lambda (`None` for an
    /// accumulator).
    fn row(&self, i: Exp) -> Option<Val> {
        match self {
            Input::Rows(a) => Some(row_val(a, i)),
            Input::Iota(io) => Some(Val::Scalar(io.at(i), io.t)),
            Input::Acc(_) => None,
        }
    }
}

/// The destination of one screma result.
#[derive(Clone, Debug)]
enum Out {
    Array(Arr),
    Acc(usize),
}

/// The element type of an operator's values: its first parameters.
fn op_types(op: &AccOp) -> Vec<Type> {
    op.lam.params[..op.neutral.len()]
        .iter()
        .map(|p| p.ty.clone())
        .collect()
}

/// `Some(t)` when the operator is `+` on one value of type `t`.
pub(crate) fn is_add(op: &AccOp) -> Option<PrimType> {
    let [p, q] = &op.lam.params[..] else {
        return None;
    };
    let [s] = &op.lam.body.stms[..] else {
        return None;
    };
    let parad_core::Exp::Basic(BasicOp::BinOp(BinOp::Add, t, Operand::Var(a), Operand::Var(b))) =
        &s.exp
    else {
        return None;
    };
    let args_ok = (*a == p.name && *b == q.name) || (*a == q.name && *b == p.name);
    let res_ok = op.lam.body.result == [Operand::Var(s.pat[0].name)];
    (args_ok && res_ok && *t != PrimType::Bool).then_some(*t)
}

fn identity_lambda(l: &mut Lower, tys: Vec<Type>) -> Lambda {
    let params: Vec<Param> = tys
        .into_iter()
        .map(|t| Param::new(l.fresh("x"), t))
        .collect();
    let result = params.iter().map(|p| Operand::Var(p.name)).collect();
    Lambda {
        ret: params.iter().map(|p| p.ty.clone()).collect(),
        params,
        body: parad_core::Body::new(vec![], result),
    }
}

impl Lower {
    pub(crate) fn soac(&mut self, s: &Soac, pat: &[Param], span: Span) -> Result<Vec<Val>> {
        if let Some(vs) = self.tiled(s, pat, span)? {
            return Ok(vs);
        }
        match s {
            Soac::Map(Map { w, lam, arrs }) => {
                let sc = Screma {
                    w: *w,
                    arrs: arrs.clone(),
                    scans: vec![],
                    reds: vec![],
                    lam: lam.clone(),
                };
                self.screma(&sc, pat, span)
            }
            Soac::Reduce(Reduce { w, comm, op, arrs }) => {
                let lam = identity_lambda(self, op_types(op));
                let sc = Screma {
                    w: *w,
                    arrs: arrs.clone(),
                    scans: vec![],
                    reds: vec![Reduction {
                        comm: *comm,
                        op: op.clone(),
                    }],
                    lam,
                };
                self.screma(&sc, pat, span)
            }
            Soac::Scan(Scan { w, op, arrs }) => {
                let lam = identity_lambda(self, op_types(op));
                let sc = Screma {
                    w: *w,
                    arrs: arrs.clone(),
                    scans: vec![op.clone()],
                    reds: vec![],
                    lam,
                };
                self.screma(&sc, pat, span)
            }
            Soac::Screma(sc) => self.screma(sc, pat, span),
            Soac::Hist(h) => self.hist(h, span),
            Soac::Scatter(sc) => self.scatter(sc, span),
            Soac::WithAcc(wa) => self.withacc(wa, span),
        }
    }

    fn inputs(&mut self, arrs: &[VName], w: &Exp, what: &str, span: Span) -> Result<Vec<Input>> {
        arrs.iter()
            .map(|a| {
                if let Some(io) = self.iotas.get(a).cloned() {
                    let shape = std::slice::from_ref(&io.n);
                    self.check_width(shape, w, what, span);
                    return Ok(Input::Iota(io));
                }
                self.input(*a, w, what, span)
            })
            .collect()
    }

    fn input(&mut self, a: VName, w: &Exp, what: &str, span: Span) -> Result<Input> {
        match self.lookup(a)?.clone() {
            Val::Array(x) => {
                self.check_outer(&x, w, what, span);
                Ok(Input::Rows(x))
            }
            Val::Acc(id) => Ok(Input::Acc(id)),
            Val::Scalar(..) => unsupported("internal error: a SOAC over a scalar"),
        }
    }

    fn screma(&mut self, s: &Screma, pat: &[Param], span: Span) -> Result<Vec<Val>> {
        let w = self.operand(&s.w)?;
        let w = self.name_exp("w", I64, w);
        let what = if s.scans.is_empty() && s.reds.is_empty() {
            "map"
        } else if s.reds.is_empty() {
            "scan"
        } else {
            "reduce"
        };
        let inputs = self.inputs(&s.arrs, &w, what, span)?;
        let nscan = s.scans.len();
        let nred = s.reds.len();
        let scan_n = s.scan_arity();
        let red_n = s.red_arity();
        // Results: scans' arrays, reductions' values, mapped arrays.
        let mut scan_outs = vec![];
        let neutrals: Vec<Operand> = s.scans.iter().flat_map(|o| o.neutral.clone()).collect();
        for (p, ne) in pat[..scan_n].iter().zip(&neutrals) {
            // Rows have the neutral element's shape.
            let shape = match self.val_of(ne)? {
                Val::Array(a) if p.ty.shape().contains(&parad_core::Dim::Ext) => {
                    std::iter::once(w.clone()).chain(a.shape).collect()
                }
                _ => self.shape_of(&p.ty)?,
            };
            scan_outs.push(self.alloc(p.name, p.ty.elem().unwrap_or(I64), shape, span));
        }
        let mut map_outs = vec![];
        let mut acc_ins = inputs.iter().filter_map(|i| match i {
            Input::Acc(id) => Some(*id),
            _ => None,
        });
        let arrays: Vec<(usize, &Type)> = pat[scan_n + red_n..]
            .iter()
            .enumerate()
            .filter(|(_, p)| !matches!(p.ty, Type::Acc(_)))
            .map(|(k, p)| (scan_n + red_n + k, &p.ty))
            .collect();
        let mut shapes = self
            .map_result_shapes(&s.lam, &arrays, &inputs, &w)?
            .into_iter();
        for p in &pat[scan_n + red_n..] {
            match &p.ty {
                Type::Acc(_) => map_outs.push(Out::Acc(acc_ins.next().ok_or_else(|| {
                    super::LowerError("internal error: an accumulator result without input".into())
                })?)),
                t => {
                    let shape = shapes.next().expect("a shape per array result");
                    map_outs.push(Out::Array(self.alloc(
                        p.name,
                        t.elem().unwrap_or(I64),
                        shape,
                        span,
                    )));
                }
            }
        }
        let scan_ops: Vec<&AccOp> = s.scans.iter().collect();
        let red_ops: Vec<&AccOp> = s.reds.iter().map(|r| &r.op).collect();
        let red_pat = &pat[scan_n..scan_n + red_n];
        let _ = (nscan, nred);
        let body = Iter {
            lam: &s.lam,
            inputs: &inputs,
            scan_ops: &scan_ops,
            red_ops: &red_ops,
            scan_outs: &scan_outs,
            map_outs: &map_outs,
            span,
        };
        let red_vals = if !self.par {
            self.seq_screma(&body, w.clone(), red_pat)?
        } else {
            self.versioned(&body, &w, red_pat, span)?
        };
        let mut out: Vec<Val> = scan_outs.into_iter().map(Val::Array).collect();
        out.extend(red_vals);
        out.extend(map_outs.into_iter().map(|o| match o {
            Out::Array(a) => Val::Array(a),
            Out::Acc(id) => Val::Acc(id),
        }));
        Ok(out)
    }

    /// A top-level screma in two versions chosen at run time from its
    /// width: parallel across its rows when there is enough work, else a
    /// sequential loop whose body may itself run its SOACs in parallel
    /// (the inner level gets the threads when the outer one is narrow).
    fn versioned(&mut self, it: &Iter, w: &Exp, red_pat: &[Param], span: Span) -> Result<Vec<Val>> {
        let mut nested = false;
        let mut cost = 0i64;
        parad_core::walk::body_stms(&it.lam.body, |s| {
            cost += 1;
            nested |= matches!(s.exp, parad_core::Exp::Soac(_) | parad_core::Exp::Loop(_));
        });
        let results: Vec<Merge> = red_pat
            .iter()
            .map(|p| self.merge_var(p.name, &p.ty))
            .collect();
        let par_code = self.nested(|l| {
            let vs = if it.scan_ops.is_empty() && it.red_ops.is_empty() {
                l.par_map(it, w)?;
                vec![]
            } else {
                l.par_chunks(it, w, &[], span)?
            };
            for (m, v) in results.iter().zip(&vs) {
                l.assign_merge(m, v, false)?;
            }
            Ok(())
        })?;
        if self.target == super::Target::Gpu {
            self.code.extend(par_code);
            return Ok(results.iter().map(|m| m.val(None)).collect());
        }
        let depth = self.versions;
        let seq_code = self.nested(|l| {
            l.versions += 1;
            let par = l.par;
            l.par = nested && depth < MAX_VERSION_DEPTH;
            let vs = l.seq_screma(it, w.clone(), &[]);
            l.par = par;
            l.versions -= 1;
            for (m, v) in results.iter().zip(&vs?) {
                l.assign_merge(m, v, false)?;
            }
            Ok(())
        })?;
        // Nested parallelism pays off from one row per thread; flat
        // functions need enough rows to cover the cost of starting threads.
        let enough = if nested {
            // At least a row per thread, and more than a few statements
            // (a narrow map of small vectors in a loop stays sequential;
            // its sequential version still gives the threads to long
            // inner SOACs).
            Exp::and(
                Exp::cmp(CmpOp::Le, I64, Exp::NumThreads, w.clone()),
                Exp::cmp(
                    CmpOp::Le,
                    I64,
                    Exp::i64(PAR_MIN_NESTED_WORK),
                    Exp::times(w.clone(), Exp::i64(cost.max(1))),
                ),
            )
        } else {
            Exp::cmp(
                CmpOp::Le,
                I64,
                Exp::i64(PAR_MIN_WORK),
                Exp::times(w.clone(), Exp::i64(cost.max(1))),
            )
        };
        let single = Exp::cmp(CmpOp::Eq, I64, Exp::NumThreads, Exp::i64(1));
        self.emit(Code::If {
            cond: Exp::and(Exp::negate(single), enough),
            then_br: par_code,
            else_br: seq_code,
        });
        Ok(results.iter().map(|m| m.val(None)).collect())
    }

    /// The accumulators of a reduction or scan, as merge variables set to
    /// the neutral elements.
    fn acc_merges(&mut self, ops: &[&AccOp], like: &[Param]) -> Result<Vec<Vec<Merge>>> {
        let mut k = 0;
        let mut all = vec![];
        for op in ops {
            let mut ms = vec![];
            for (ne, t) in op.neutral.iter().zip(op_types(op)) {
                let name = like.get(k).map_or_else(|| self.fresh("acc"), |p| p.name);
                let m = self.merge_var(name, &t);
                let v = self.val_of(ne)?;
                self.assign_merge(&m, &v, false)?;
                ms.push(m);
                k += 1;
            }
            all.push(ms);
        }
        Ok(all)
    }

    /// `acc := op(acc, vs)` for each operator, through named temporaries.
    fn combine(&mut self, ops: &[&AccOp], accs: &[Vec<Merge>], vs: &[Val]) -> Result<()> {
        let mut k = 0;
        for (op, ms) in ops.iter().zip(accs) {
            let n = ms.len();
            let mut args: Vec<Val> = ms.iter().map(|m| m.val(None)).collect();
            args.extend(vs[k..k + n].iter().cloned());
            k += n;
            let code = self.repeated(|l| {
                let new = l.apply(&op.lam, args)?;
                let new = l.name_vals(new);
                for (m, v) in ms.iter().zip(&new) {
                    l.assign_merge(m, v, false)?;
                }
                Ok(())
            })?;
            self.emit(Code::Block(code));
        }
        Ok(())
    }

    /// Scalars bound to variables (so that assigning one accumulator
    /// does not change the value of another).
    fn name_vals(&mut self, vs: Vec<Val>) -> Vec<Val> {
        vs.into_iter()
            .map(|v| match v {
                Val::Scalar(e, t) => Val::Scalar(self.name_exp("r", t, e), t),
                v => v,
            })
            .collect()
    }

    /// One iteration `i`: the lambda, then the scans (each new value
    /// written at `i`), the reductions, and the mapped values.
    fn iteration(
        &mut self,
        it: &Iter,
        i: &Exp,
        scans: &[Vec<Merge>],
        reds: &[Vec<Merge>],
    ) -> Result<()> {
        let args: Vec<Val> = it
            .inputs
            .iter()
            .map(|inp| match inp {
                Input::Acc(id) => Val::Acc(*id),
                rows => rows.row(i.clone()).expect("rows"),
            })
            .collect();
        let vs = self.apply(it.lam, args)?;
        let vs = self.name_vals(vs);
        let scan_n: usize = it.scan_ops.iter().map(|o| o.neutral.len()).sum();
        let red_n: usize = it.red_ops.iter().map(|o| o.neutral.len()).sum();
        self.combine(it.scan_ops, scans, &vs[..scan_n])?;
        let mut k = 0;
        for ms in scans {
            for m in ms {
                let v = m.val(None);
                self.write_val(&it.scan_outs[k], std::slice::from_ref(i), &v)?;
                k += 1;
            }
        }
        self.combine(it.red_ops, reds, &vs[scan_n..scan_n + red_n])?;
        for (o, v) in it.map_outs.iter().zip(&vs[scan_n + red_n..]) {
            if let Out::Array(a) = o {
                if let Val::Array(x) = v {
                    self.check_rows(&a.shape[1..], &x.shape, it.span);
                }
                self.write_val(a, std::slice::from_ref(i), v)?;
            }
        }
        Ok(())
    }

    /// The whole screma as one sequential loop; returns the reductions'
    /// values.
    fn seq_screma(&mut self, it: &Iter, w: Exp, red_pat: &[Param]) -> Result<Vec<Val>> {
        let (_, reds) = self.seq_loop(it, Exp::i64(0), w, red_pat)?;
        Ok(reds.iter().flatten().map(|m| m.val(None)).collect())
    }

    fn seq_loop(&mut self, it: &Iter, lo: Exp, hi: Exp, red_pat: &[Param]) -> Result<(Accs, Accs)> {
        let scans = self.acc_merges(it.scan_ops, &[])?;
        let reds = self.acc_merges(it.red_ops, red_pat)?;
        self.row_loop(&lo, &hi, |l, i| l.iteration(it, i, &scans, &reds))?;
        Ok((scans, reds))
    }

    /// Rows `c·w/n .. (c+1)·w/n` of chunk `c` (of `n`), as named bounds.
    fn chunk_bounds(&mut self, c: &Exp, w: &Exp, n: &Exp) -> (Exp, Exp) {
        let lo = Exp::over(Exp::times(c.clone(), w.clone()), n.clone());
        let hi = Exp::over(
            Exp::times(Exp::plus(c.clone(), Exp::i64(1)), w.clone()),
            n.clone(),
        );
        (self.name_exp("lo", I64, lo), self.name_exp("hi", I64, hi))
    }

    /// A sequential loop `i < bound` (`i64`) whose body `f` lowers.
    fn seq_for(
        &mut self,
        i: VName,
        bound: Exp,
        f: impl FnOnce(&mut Lower) -> Result<()>,
    ) -> Result<()> {
        let body = self.repeated(f)?;
        self.emit(Code::For {
            i,
            it: parad_base::IntType::I64,
            bound,
            body,
        });
        Ok(())
    }

    /// A sequential loop over rows `lo..hi`, `f` given the row index.
    fn row_loop(
        &mut self,
        lo: &Exp,
        hi: &Exp,
        f: impl FnOnce(&mut Lower, &Exp) -> Result<()>,
    ) -> Result<()> {
        let j = self.fresh("j");
        let body = self.repeated(|l| {
            let i = l.name_exp("i", I64, Exp::plus(lo.clone(), Exp::Var(j)));
            f(l, &i)
        })?;
        self.emit(Code::For {
            i: j,
            it: parad_base::IntType::I64,
            bound: Exp::minus(hi.clone(), lo.clone()),
            body,
        });
        Ok(())
    }

    /// A parallel map: one iteration per row. Accumulators passed in are
    /// updated in per-thread copies merged afterwards when they are small
    /// next to the threads' work, atomically otherwise.
    fn par_map(&mut self, it: &Iter, w: &Exp) -> Result<()> {
        let acc_ids: Vec<usize> = it
            .inputs
            .iter()
            .filter_map(|i| match i {
                Input::Acc(id) => Some(*id),
                _ => None,
            })
            .collect();
        let atomic = self.nested(|l| l.par_map_with(it, w, |_| AccMode::Atomic))?;
        let privatisable = !acc_ids.is_empty()
            && acc_ids
                .iter()
                .all(|id| !matches!(self.accs[*id].mode, AccMode::Discard))
            && acc_ids.iter().all(|id| {
                let a = &self.accs[*id];
                a.op.as_ref()
                    .is_some_and(|op| op.lam.params.iter().all(|p| p.ty.rank() == 0))
                    && a.arrs.iter().all(|x| x.rank() == a.arrs[0].rank())
            });
        if !privatisable {
            self.code.extend(atomic);
            return Ok(());
        }
        let total = acc_ids
            .iter()
            .flat_map(|id| {
                self.accs[*id]
                    .arrs
                    .iter()
                    .map(|a| a.elems())
                    .collect::<Vec<_>>()
            })
            .fold(Exp::i64(0), Exp::plus);
        let private = self.nested(|l| l.par_map_private(it, w, &acc_ids))?;
        // Copies unless they would take much memory: updating a private
        // copy costs a plain read and write, an atomic update of a float a
        // compare-and-swap loop.
        let cond = Exp::cmp(
            CmpOp::Le,
            I64,
            Exp::times(total, Exp::NumThreads),
            Exp::i64(PRIVATE_ACC_MAX),
        );
        self.emit(Code::If {
            cond,
            then_br: private,
            else_br: atomic,
        });
        Ok(())
    }

    /// The parallel loop of a map whose accumulator inputs are given the
    /// mode `mode(id)`.
    fn par_map_with(&mut self, it: &Iter, w: &Exp, mode: impl Fn(usize) -> AccMode) -> Result<()> {
        let mut inputs = it.inputs.to_vec();
        for inp in inputs.iter_mut() {
            if let Input::Acc(id) = inp {
                let mut a = self.accs[*id].clone();
                if !matches!(a.mode, AccMode::Discard) {
                    a.mode = mode(*id);
                }
                self.accs.push(a);
                *inp = Input::Acc(self.accs.len() - 1);
            }
        }
        let it = Iter {
            inputs: &inputs,
            ..*it
        };
        let i = self.fresh("i");
        self.par_for(i, w.clone(), |l| l.iteration(&it, &Exp::Var(i), &[], &[]))?;
        Ok(())
    }

    /// A map over chunks of rows, one per thread, each updating its own
    /// copy of the accumulators (initialised to the neutral element);
    /// then every element of the accumulators combined with the copies.
    fn par_map_private(&mut self, it: &Iter, w: &Exp, acc_ids: &[usize]) -> Result<()> {
        let nchunks = self.name_exp("nchunks", I64, Exp::min(w.clone(), Exp::NumThreads));
        let span = it.span;
        let mut privs: Vec<(usize, Vec<Arr>)> = vec![];
        for id in acc_ids {
            let acc = self.accs[*id].clone();
            let op = acc
                .op
                .clone()
                .expect("privatisable accumulators have operators");
            let mut ps = vec![];
            for (a, ne) in acc.arrs.iter().zip(&op.neutral) {
                let mut shape = vec![nchunks.clone()];
                shape.extend(a.shape.iter().cloned());
                let like = self.fresh("private");
                let p = self.alloc(like, a.elem, shape.clone(), span);
                let ne = self.operand(ne)?;
                self.loop_nest(&shape, &mut |l, idx| {
                    l.emit(Code::Write {
                        mem: p.mem,
                        elem: p.elem,
                        index: p.pos(idx),
                        value: ne.clone(),
                    });
                    Ok(())
                })?;
                ps.push(p);
            }
            privs.push((*id, ps));
        }
        let c = self.fresh("chunk");
        let mut inputs = it.inputs.to_vec();
        for inp in inputs.iter_mut() {
            if let Input::Acc(id) = inp {
                let ps = &privs.iter().find(|(p, _)| p == id).expect("a copy").1;
                let mut a = self.accs[*id].clone();
                a.mode = AccMode::Private {
                    privs: ps.clone(),
                    chunk: Exp::Var(c),
                };
                self.accs.push(a);
                *inp = Input::Acc(self.accs.len() - 1);
            }
        }
        let it = Iter {
            inputs: &inputs,
            ..*it
        };
        self.par_for(c, nchunks.clone(), |l| {
            let (lo, hi) = l.chunk_bounds(&Exp::Var(c), w, &nchunks);
            l.row_loop(&lo, &hi, |l, i| l.iteration(&it, i, &[], &[]))
        })?;
        // Merge: acc = op(acc, copy_0, copy_1, …), elementwise, rows of
        // the outer dimension in parallel.
        for (id, ps) in &privs {
            let acc = self.accs[*id].clone();
            let op = acc.op.clone().expect("an operator");
            let shape = acc.arrs[0].shape.clone();
            let merge = |l: &mut Lower, idx: &[Exp]| -> Result<()> {
                let c2 = l.fresh("chunk");
                let body = l.repeated(|l| {
                    let mut args: Vec<Val> = acc
                        .arrs
                        .iter()
                        .map(|a| Val::Scalar(a.read(idx), a.elem))
                        .collect();
                    let mut pidx = vec![Exp::Var(c2)];
                    pidx.extend(idx.iter().cloned());
                    args.extend(ps.iter().map(|p| Val::Scalar(p.read(&pidx), p.elem)));
                    let new = l.apply(&op.lam, args)?;
                    let new = l.name_vals(new);
                    for (a, v) in acc.arrs.iter().zip(&new) {
                        l.write_val(a, idx, v)?;
                    }
                    Ok(())
                })?;
                l.emit(Code::For {
                    i: c2,
                    it: parad_base::IntType::I64,
                    bound: nchunks.clone(),
                    body,
                });
                Ok(())
            };
            if shape.is_empty() {
                let code = self.repeated(|l| merge(l, &[]))?;
                self.emit(Code::Block(code));
                continue;
            }
            let r = self.fresh("row");
            self.par_for(r, shape[0].clone(), |l| {
                l.loop_nest(&shape[1..], &mut |l, rest| {
                    let mut idx = vec![Exp::Var(r)];
                    idx.extend(rest.iter().cloned());
                    merge(l, &idx)
                })
            })?;
        }
        Ok(())
    }

    /// Reductions and scans at the top level: per-chunk partial results,
    /// combined in order.
    fn par_chunks(
        &mut self,
        it: &Iter,
        w: &Exp,
        red_pat: &[Param],
        span: Span,
    ) -> Result<Vec<Val>> {
        let mut inputs = it.inputs.to_vec();
        for inp in inputs.iter_mut() {
            if let Input::Acc(id) = inp {
                let mut a = self.accs[*id].clone();
                if !matches!(a.mode, AccMode::Discard) {
                    a.mode = AccMode::Atomic;
                }
                self.accs.push(a);
                *inp = Input::Acc(self.accs.len() - 1);
            }
        }
        let it = Iter {
            inputs: &inputs,
            ..*it
        };
        let nchunks = self.name_exp("nchunks", I64, Exp::min(w.clone(), Exp::NumThreads));
        // Partial results per chunk: [nchunks] ++ value shape.
        let partials = |l: &mut Lower, ops: &[&AccOp]| -> Result<Vec<Arr>> {
            let mut out = vec![];
            for op in ops {
                for (t, ne) in op_types(op).iter().zip(&op.neutral) {
                    let mut shape = vec![nchunks.clone()];
                    // Values have the neutral element's shape.
                    match l.val_of(ne)? {
                        Val::Array(a) => shape.extend(a.shape),
                        _ => shape.extend(l.shape_of(t)?),
                    }
                    let like = l.fresh("part");
                    out.push(l.alloc(like, t.elem().unwrap_or(I64), shape, span));
                }
            }
            Ok(out)
        };
        let scan_parts = partials(self, it.scan_ops)?;
        let red_parts = partials(self, it.red_ops)?;
        let c = self.fresh("chunk");
        self.par_for(c, nchunks.clone(), |l| {
            let (lo, hi) = l.chunk_bounds(&Exp::Var(c), w, &nchunks);
            let (scans, reds) = l.seq_loop(&it, lo, hi, &[])?;
            for (parts, ms) in [(&scan_parts, scans), (&red_parts, reds)] {
                for (p, m) in parts.iter().zip(ms.iter().flatten()) {
                    l.write_val(p, &[Exp::Var(c)], &m.val(None))?;
                }
            }
            Ok(())
        })?;
        // Reductions: combine the chunks in order.
        let reds = self.acc_merges(it.red_ops, red_pat)?;
        let c2 = self.fresh("chunk");
        let comb = self.repeated(|l| {
            let vs: Vec<Val> = red_parts.iter().map(|p| row_val(p, Exp::Var(c2))).collect();
            l.combine(it.red_ops, &reds, &vs)
        })?;
        self.emit(Code::For {
            i: c2,
            it: parad_base::IntType::I64,
            bound: nchunks.clone(),
            body: comb,
        });
        if !it.scan_ops.is_empty() {
            self.scan_fixup(&it, w, &nchunks, &scan_parts, span)?;
        }
        Ok(reds.iter().flatten().map(|m| m.val(None)).collect())
    }

    /// Phases 2 and 3 of a parallel scan: exclusive prefixes of the chunk
    /// totals, then each chunk after the first combined with its prefix.
    fn scan_fixup(
        &mut self,
        it: &Iter,
        w: &Exp,
        nchunks: &Exp,
        totals: &[Arr],
        span: Span,
    ) -> Result<()> {
        let carry = self.acc_merges(it.scan_ops, &[])?;
        let mut prefixes = vec![];
        for t in totals {
            let like = self.fresh("prefix");
            prefixes.push(self.alloc(like, t.elem, t.shape.clone(), span));
        }
        let c = self.fresh("chunk");
        let step = self.repeated(|l| {
            for (p, m) in prefixes.iter().zip(carry.iter().flatten()) {
                l.write_val(p, &[Exp::Var(c)], &m.val(None))?;
            }
            let vs: Vec<Val> = totals.iter().map(|t| row_val(t, Exp::Var(c))).collect();
            l.combine(it.scan_ops, &carry, &vs)
        })?;
        self.emit(Code::For {
            i: c,
            it: parad_base::IntType::I64,
            bound: nchunks.clone(),
            body: step,
        });
        let c = self.fresh("chunk");
        self.par_for(c, nchunks.clone(), |l| {
            let cv = Exp::Var(c);
            let (lo, hi) = l.chunk_bounds(&cv, w, nchunks);
            let inner = l.nested(|l| {
                l.row_loop(&lo, &hi, |l, i| {
                    let i = i.clone();
                    let mut k = 0;
                    for op in it.scan_ops {
                        let n = op.neutral.len();
                        let mut args: Vec<Val> = prefixes[k..k + n]
                            .iter()
                            .map(|p| row_val(p, cv.clone()))
                            .collect();
                        args.extend(it.scan_outs[k..k + n].iter().map(|o| row_val(o, i.clone())));
                        let code = l.repeated(|l| {
                            let new = l.apply(&op.lam, args)?;
                            let new = l.name_vals(new);
                            for (o, v) in it.scan_outs[k..k + n].iter().zip(&new) {
                                l.write_val(o, std::slice::from_ref(&i), v)?;
                            }
                            Ok(())
                        })?;
                        l.emit(Code::Block(code));
                        k += n;
                    }
                    Ok(())
                })
            })?;
            l.emit(Code::If {
                cond: Exp::lt(Exp::i64(0), cv),
                then_br: inner,
                else_br: vec![],
            });
            Ok(())
        })?;
        Ok(())
    }

    /// An index value as `i64`.
    fn index_exp(&self, a: &Arr, i: &Exp) -> Exp {
        let e = a.read(std::slice::from_ref(i));
        if a.elem == I64 {
            e
        } else {
            Exp::Conv(ConvOp::Cast, a.elem, I64, Box::new(e))
        }
    }

    /// Whether `idx` is inside the first `idx.len()` dimensions of `a`.
    fn in_bounds(a: &Arr, idx: &[Exp]) -> Exp {
        idx.iter()
            .zip(&a.shape)
            .fold(Exp::Const(Scalar::Bool(true)), |c, (i, d)| {
                Exp::and(
                    c,
                    Exp::and(
                        Exp::cmp(CmpOp::Le, I64, Exp::i64(0), i.clone()),
                        Exp::lt(i.clone(), d.clone()),
                    ),
                )
            })
    }

    /// `dests[idx] ⊙= vs` in the given mode (out-of-bounds ignored).
    fn update_at(
        &mut self,
        dests: &[Arr],
        op: Option<&AccOp>,
        mode: &AccMode,
        idx: &[Exp],
        vs: &[Val],
    ) -> Result<()> {
        if let AccMode::Discard = mode {
            return Ok(());
        }
        if let AccMode::Private { privs, chunk } = mode {
            let own: Vec<Arr> = privs.iter().map(|p| p.row(chunk.clone())).collect();
            // Bounds are those of the accumulator (the copies have its shape).
            let Some(first) = dests.first() else {
                return Ok(());
            };
            let cond = Self::in_bounds(first, idx);
            let code = self.repeated(|l| l.update_at(&own, op, &AccMode::Direct, idx, vs))?;
            self.emit(Code::If {
                cond,
                then_br: code,
                else_br: vec![],
            });
            return Ok(());
        }
        let Some(first) = dests.first() else {
            return Ok(());
        };
        let cond = Self::in_bounds(first, idx);
        let rows: Vec<Arr> = dests
            .iter()
            .map(|d| {
                let mut r = d.clone();
                for i in idx {
                    r = r.row(i.clone());
                }
                r
            })
            .collect();
        let code = self.repeated(|l| {
            let idx: Vec<Exp> = idx
                .iter()
                .map(|i| l.name_exp("idx", I64, i.clone()))
                .collect();
            let rows: Vec<Arr> = dests
                .iter()
                .map(|d| {
                    let mut r = d.clone();
                    for i in &idx {
                        r = r.row(i.clone());
                    }
                    r
                })
                .collect();
            let Some(op) = op else {
                for (r, v) in rows.iter().zip(vs) {
                    l.write_val(r, &[], v)?;
                }
                return Ok(());
            };
            let scalar = rows.iter().all(|r| r.rank() == 0);
            match mode {
                AccMode::Atomic if scalar && rows.len() == 1 => {
                    let r = &rows[0];
                    let v = vs[0].exp();
                    if is_add(op).is_some() {
                        l.emit(Code::AtomicAdd {
                            mem: r.mem,
                            elem: r.elem,
                            index: r.pos(&[]),
                            value: v,
                        });
                    } else {
                        let old = l.fresh("old");
                        let new = l.fresh("new");
                        let body = l.nested(|l| {
                            let res = l.apply(
                                &op.lam,
                                vec![Val::Scalar(Exp::Var(old), r.elem), vs[0].clone()],
                            )?;
                            l.emit(Code::Let {
                                var: new,
                                ty: r.elem,
                                exp: res[0].exp(),
                            });
                            Ok(())
                        })?;
                        l.emit(Code::Cas {
                            mem: r.mem,
                            elem: r.elem,
                            index: r.pos(&[]),
                            old,
                            new,
                            body,
                        });
                    }
                    Ok(())
                }
                AccMode::Atomic => {
                    let body = l.nested(|l| l.rmw(&rows, op, vs))?;
                    l.emit(Code::Critical(body));
                    Ok(())
                }
                _ => l.rmw(&rows, op, vs),
            }
        })?;
        let _ = rows;
        self.emit(Code::If {
            cond,
            then_br: code,
            else_br: vec![],
        });
        Ok(())
    }

    /// `rows := op(rows, vs)`, read-modify-write.
    fn rmw(&mut self, rows: &[Arr], op: &AccOp, vs: &[Val]) -> Result<()> {
        let mut args: Vec<Val> = rows
            .iter()
            .map(|r| {
                if r.rank() == 0 {
                    Val::Scalar(r.read(&[]), r.elem)
                } else {
                    Val::Array(r.clone())
                }
            })
            .collect();
        args.extend(vs.iter().cloned());
        let new = self.apply(&op.lam, args)?;
        let new = self.name_vals(new);
        for (r, v) in rows.iter().zip(&new) {
            self.write_val(r, &[], v)?;
        }
        Ok(())
    }

    /// `hist` is a map whose function updates an accumulator over the
    /// destinations, so it gets the same strategies: per-thread
    /// sub-histograms merged bin by bin when the histogram is small,
    /// atomic updates otherwise.
    fn hist(&mut self, h: &Hist, span: Span) -> Result<Vec<Val>> {
        let w = self.operand(&h.w)?;
        let w = self.name_exp("w", I64, w);
        let mut dests = vec![];
        for d in &h.dests {
            let a = self.arr(*d)?;
            dests.push(self.take_unique(*d, &a, span)?);
        }
        let inds: Vec<Arr> = h.inds.iter().map(|v| self.arr(*v)).collect::<Result<_>>()?;
        let vals: Vec<Arr> = h.vals.iter().map(|v| self.arr(*v)).collect::<Result<_>>()?;
        for a in inds.iter().chain(&vals) {
            self.check_outer(a, &w, "hist", span);
        }
        self.accs.push(Acc {
            arrs: dests.clone(),
            op: Some(h.op.clone()),
            mode: AccMode::Direct,
        });
        let id = self.accs.len() - 1;
        let lam = self.upd_lambda(&inds, &vals, span);
        let mut inputs: Vec<Input> = inds.iter().chain(&vals).cloned().map(Input::Rows).collect();
        inputs.push(Input::Acc(id));
        let map_outs = [Out::Acc(id)];
        let it = Iter {
            lam: &lam,
            inputs: &inputs,
            scan_ops: &[],
            red_ops: &[],
            scan_outs: &[],
            map_outs: &map_outs,
            span,
        };
        if self.par {
            self.versioned(&it, &w, &[], span)?;
        } else {
            self.seq_screma(&it, w, &[])?;
        }
        Ok(dests.into_iter().map(Val::Array).collect())
    }

    /// `\(i…, v…, acc) -> upd(acc, [i…], [v…])`, indices made `i64`.
    fn upd_lambda(&mut self, inds: &[Arr], vals: &[Arr], span: Span) -> Lambda {
        let mut params = vec![];
        let mut stms = vec![];
        let mut idx = vec![];
        for a in inds {
            let p = Param::new(self.fresh("ind"), Type::Prim(a.elem));
            if a.elem == I64 {
                idx.push(Operand::Var(p.name));
            } else {
                let v = self.fresh("ind");
                stms.push(parad_core::Stm::new(
                    vec![Param::new(v, parad_core::types::I64)],
                    BasicOp::Conv(ConvOp::Cast, a.elem, I64, Operand::Var(p.name)),
                    span,
                ));
                idx.push(Operand::Var(v));
            }
            params.push(p);
        }
        let mut vs = vec![];
        for a in vals {
            let t = Type::array(
                a.elem,
                vec![parad_core::Dim::Ext; a.rank().saturating_sub(1)],
            );
            let p = Param::new(self.fresh("val"), t);
            vs.push(Operand::Var(p.name));
            params.push(p);
        }
        let acc_ty = Type::Acc(parad_core::AccType {
            ispace: vec![parad_core::Dim::Ext; inds.len()],
            elems: params[inds.len()..].iter().map(|p| p.ty.clone()).collect(),
        });
        let acc = Param::new(self.fresh("acc"), acc_ty.clone());
        let out = Param::new(self.fresh("acc"), acc_ty.clone());
        stms.push(parad_core::Stm::new(
            vec![out.clone()],
            BasicOp::Upd {
                acc: acc.name,
                inds: idx,
                vals: vs,
            },
            span,
        ));
        params.push(acc);
        Lambda {
            params,
            ret: vec![acc_ty],
            body: parad_core::Body::new(stms, vec![Operand::Var(out.name)]),
        }
    }

    fn scatter(&mut self, s: &Scatter, span: Span) -> Result<Vec<Val>> {
        let w = self.operand(&s.w)?;
        let w = self.name_exp("w", I64, w);
        let mut out = vec![];
        for d in &s.dests {
            let a = self.arr(d.arr)?;
            let dst = self.take_unique(d.arr, &a, span)?;
            let inds: Vec<Arr> = d.inds.iter().map(|v| self.arr(*v)).collect::<Result<_>>()?;
            let vals = self.arr(d.vals)?;
            for a in inds.iter().chain(std::iter::once(&vals)) {
                self.check_outer(a, &w, "scatter", span);
            }
            let i = self.fresh("i");
            let par = self.par;
            let body = |l: &mut Lower| {
                let iv = Exp::Var(i);
                let idx: Vec<Exp> = inds.iter().map(|a| l.index_exp(a, &iv)).collect();
                let v = row_val(&vals, iv);
                l.update_at(
                    std::slice::from_ref(&dst),
                    None,
                    &AccMode::Direct,
                    &idx,
                    &[v],
                )
            };
            if par && w.as_i64().is_none_or(|n| n >= PAR_SCATTER_MIN) {
                // Duplicate indices: the last write wins when the scatter
                // runs sequentially, as in the interpreter (which reverse
                // AD of scatter relies on); large scatters run in parallel,
                // where, as in Futhark, which duplicate wins is unspecified.
                let seq_code = self.nested(|l| l.seq_for(i, w.clone(), body))?;
                let par_code = self.nested(|l| l.par_for(i, w.clone(), body))?;
                self.emit(Code::If {
                    cond: Exp::lt(w.clone(), Exp::i64(PAR_SCATTER_MIN)),
                    then_br: seq_code,
                    else_br: par_code,
                });
            } else {
                self.seq_for(i, w.clone(), body)?;
            }
            out.push(Val::Array(dst));
        }
        Ok(out)
    }

    fn withacc(&mut self, wa: &WithAcc, span: Span) -> Result<Vec<Val>> {
        let mut ids = vec![];
        let mut arrays = vec![];
        for inp in &wa.inputs {
            let mut arrs = vec![];
            for a in &inp.arrs {
                let x = self.arr(*a)?;
                arrs.push(self.take_unique(*a, &x, span)?);
            }
            arrays.push(arrs.clone());
            self.accs.push(Acc {
                arrs,
                op: inp.op.clone(),
                mode: AccMode::Direct,
            });
            ids.push(self.accs.len() - 1);
        }
        let mut args: Vec<Val> = ids.iter().map(|id| Val::Acc(*id)).collect();
        // Any further parameters are not expected; the checker rejects them.
        args.truncate(wa.lam.params.len());
        let res = self.apply(&wa.lam, args)?;
        let mut out: Vec<Val> = arrays.into_iter().flatten().map(Val::Array).collect();
        out.extend(res.into_iter().skip(ids.len()));
        Ok(out)
    }

    pub(crate) fn upd(
        &mut self,
        acc: VName,
        inds: &[Operand],
        vals: &[Operand],
        _span: Span,
    ) -> Result<Vec<Val>> {
        let Val::Acc(id) = self.lookup(acc)?.clone() else {
            return unsupported("internal error: upd of a non-accumulator");
        };
        let a = self.accs[id].clone();
        let idx: Vec<Exp> = inds
            .iter()
            .map(|o| self.operand(o))
            .collect::<Result<_>>()?;
        let vs: Vec<Val> = vals.iter().map(|o| self.val_of(o)).collect::<Result<_>>()?;
        let mode = a.mode.clone();
        self.update_at(&a.arrs, a.op.as_ref(), &mode, &idx, &vs)?;
        Ok(vec![Val::Acc(id)])
    }
}

/// The accumulators of several operators, one merge variable per value.
type Accs = Vec<Vec<Merge>>;

/// What one iteration of a screma does.
#[derive(Clone, Copy)]
struct Iter<'a> {
    lam: &'a Lambda,
    inputs: &'a [Input],
    scan_ops: &'a [&'a AccOp],
    red_ops: &'a [&'a AccOp],
    scan_outs: &'a [Arr],
    map_outs: &'a [Out],
    span: Span,
}

/// Whether a statement is cheap enough to run once more, before a map,
/// to learn the sizes of its results: views, sizes and scalar operations.
fn cheap(s: &parad_core::Stm) -> bool {
    use BasicOp::*;
    matches!(
        &s.exp,
        parad_core::Exp::Basic(
            Atom(_)
                | UnOp(..)
                | BinOp(..)
                | TernOp(..)
                | Cmp(..)
                | Conv(..)
                | Index { .. }
                | Reshape { .. }
                | Flatten { .. }
                | Unflatten { .. }
                | Rearrange { .. }
                | Reverse { .. }
                | Size { .. }
        )
    )
}

/// One step of computing a map result's sizes ahead of the map.
enum SizeStep<'a> {
    Stm(&'a parad_core::Stm),
    /// `name = d`: a `size` of an array whose type names that size.
    Size(VName, parad_core::Dim),
}

/// The steps that compute the sizes of `lam`'s result `k`, if they are
/// all [`cheap`] and the sizes are named.
fn size_slice(lam: &Lambda, k: usize) -> Option<Vec<SizeStep<'_>>> {
    use parad_core::Dim;
    let Operand::Var(r) = lam.body.result.get(k)? else {
        return Some(vec![]);
    };
    let stms = &lam.body.stms;
    let ty_of = |v: VName| {
        stms.iter()
            .flat_map(|s| &s.pat)
            .find(|p| p.name == v)
            .map(|p| &p.ty)
    };
    let Some(ty) = ty_of(*r) else {
        // A parameter: its size is its input's.
        return Some(vec![]);
    };
    let mut needed: Vec<VName> = vec![];
    for d in ty.shape() {
        match d {
            Dim::Var(v) => needed.push(*v),
            Dim::Ext => return None,
            Dim::Const(_) => {}
        }
    }
    let pos = stms
        .iter()
        .position(|s| s.pat.iter().any(|p| p.name == *r))?;
    let mut out = vec![];
    for s in stms[..pos].iter().rev() {
        if !s.pat.iter().any(|p| needed.contains(&p.name)) {
            continue;
        }
        if let parad_core::Exp::Basic(BasicOp::Size { arr, dim }) = &s.exp {
            match ty_of(*arr).map(|t| t.shape().get(*dim).copied()) {
                Some(Some(d @ Dim::Const(_))) => {
                    out.push(SizeStep::Size(s.pat[0].name, d));
                    continue;
                }
                Some(Some(d @ Dim::Var(v))) => {
                    needed.push(v);
                    out.push(SizeStep::Size(s.pat[0].name, d));
                    continue;
                }
                _ => {}
            }
        }
        if !cheap(s) {
            return None;
        }
        parad_core::free::stm_uses(s, &mut |v| needed.push(v));
        out.push(SizeStep::Stm(s));
    }
    out.reverse();
    Some(out)
}

impl Lower {
    /// The shapes of map results `ks` (of types `ts`), computing sizes
    /// known only inside the function from its first row: by the
    /// statements those sizes depend on when they are cheap, else by
    /// running the whole function once more, once for all results —
    /// harmless, as it may only consume its rows (a consumed row is copied
    /// first), and its accumulator updates are dropped.
    fn map_result_shapes(
        &mut self,
        lam: &Lambda,
        ks: &[(usize, &Type)],
        inputs: &[Input],
        w: &Exp,
    ) -> Result<Vec<Vec<Exp>>> {
        let ext: Vec<(usize, &Type)> = ks
            .iter()
            .filter(|(_, t)| t.shape().contains(&parad_core::Dim::Ext))
            .copied()
            .collect();
        let slices: Option<Vec<Vec<SizeStep>>> =
            ext.iter().map(|(k, _)| size_slice(lam, *k)).collect();
        let mut shapes: Vec<Option<Vec<Exp>>> = vec![None; ks.len()];
        match slices {
            Some(slices) => {
                for ((k, t), slice) in ext.iter().zip(slices) {
                    let dims = self.probe(lam, &[(*k, t)], inputs, w, slice, false)?;
                    let pos = ks.iter().position(|(j, _)| j == k).expect("a result");
                    shapes[pos] = dims.into_iter().next();
                }
            }
            None => {
                let all = lam.body.stms.iter().map(SizeStep::Stm).collect();
                let dims = self.probe(lam, &ext, inputs, w, all, true)?;
                for ((k, _), d) in ext.iter().zip(dims) {
                    let pos = ks.iter().position(|(j, _)| j == k).expect("a result");
                    shapes[pos] = Some(d);
                }
            }
        }
        ks.iter()
            .zip(shapes)
            .map(|((_, t), s)| match s {
                Some(s) => Ok(s),
                None => self.shape_of(t),
            })
            .collect()
    }

    /// Runs `steps` of `lam` on its first row (if any) and returns the
    /// shapes of results `ks`, in variables.
    fn probe(
        &mut self,
        lam: &Lambda,
        ks: &[(usize, &Type)],
        inputs: &[Input],
        w: &Exp,
        steps: Vec<SizeStep>,
        whole: bool,
    ) -> Result<Vec<Vec<Exp>>> {
        let dims: Vec<Vec<VName>> = ks
            .iter()
            .map(|(_, t)| t.shape().iter().map(|_| self.fresh("dim")).collect())
            .collect();
        for d in dims.iter().flatten() {
            self.emit(Code::Let {
                var: *d,
                ty: I64,
                exp: Exp::i64(0),
            });
        }
        // Sequentially: one row is no work to share, and parallel versions
        // of the statements would only make more code.
        let par = std::mem::replace(&mut self.par, false);
        let probe = self.nested(|l| {
            for (p, inp) in lam.params.iter().zip(inputs) {
                match inp {
                    Input::Rows(_) | Input::Iota(_) => {
                        l.bind(p, inp.row(Exp::i64(0)).expect("rows"))
                    }
                    Input::Acc(id) => {
                        let mut a = l.accs[*id].clone();
                        a.mode = AccMode::Discard;
                        l.accs.push(a);
                        let id = l.accs.len() - 1;
                        l.bind(p, Val::Acc(id))
                    }
                }
            }
            for step in steps {
                match step {
                    SizeStep::Stm(s) => l.stm(s)?,
                    SizeStep::Size(n, d) => {
                        let e = l.dim(&d)?;
                        l.bind(&Param::new(n, parad_core::types::I64), Val::Scalar(e, I64));
                    }
                }
            }
            for ((k, _), ds) in ks.iter().zip(&dims) {
                let Some(Operand::Var(r)) = lam.body.result.get(*k) else {
                    continue;
                };
                let bound = lam
                    .body
                    .stms
                    .iter()
                    .flat_map(|s| &s.pat)
                    .find(|p| p.name == *r);
                // The result itself was computed only when the whole
                // function ran; otherwise its type names its sizes.
                let shape = match (bound, l.env.get(r)) {
                    (Some(p), _) if !whole => l.shape_of(&p.ty)?,
                    (_, Some(Val::Array(a))) => a.shape.clone(),
                    _ => vec![],
                };
                let mut outer = vec![w.clone()];
                outer.extend(shape);
                // A negative size fails inside the function, with its own
                // message, before anything is written.
                for (d, e) in ds.iter().zip(outer) {
                    let e = Exp::iop(crate::ir::IOp::Max, e, Exp::i64(0));
                    l.emit(Code::Assign { var: *d, exp: e });
                }
            }
            Ok(())
        });
        self.par = par;
        let probe = probe?;
        self.emit(Code::If {
            cond: Exp::lt(Exp::i64(0), w.clone()),
            then_br: vec![Code::Block(probe)],
            else_br: vec![],
        });
        Ok(dims
            .into_iter()
            .map(|ds| ds.into_iter().map(Exp::Var).collect())
            .collect())
    }
}
