//! Matrix multiplication: map-reduce nests of matrix-multiply shape
//! lowered to the runtime's blocked kernel ([`Code::Gemm`]).
//!
//! The nest recognised is
//!
//! ```text
//! map(w1, [A], \row -> map(w2, [B], \col -> Σ_p row[p] · col[p]))
//! ```
//!
//! with `A` and `B` two-dimensional arrays of `f32` or `f64` in any
//! layout (their index functions give the kernel its strides: a
//! transposed or sliced operand is a view, not a copy), and the sum
//! written either as `reduce(+, 0)` over `map(*)` of `[row, col]` (in
//! either order) or as one redomap `screma([row, col], reds = [+ with
//! 0], \x y -> x * y)`. The bodies of both lambdas may also hold
//! statements that only compute with sizes: `size`, scalar arithmetic
//! without errors, comparisons, assertions, and transposes of arrays
//! from outside the nest (what the front end leaves around a matmul).
//! Anything else, or any other operator, neutral element or element
//! type, is not matched and gets the ordinary lowering.
//!
//! Why it is sound: the size statements give the same values for every
//! row (the rows of an array all have one shape), so they are lowered
//! once, with the lambda parameters bound to row 0 (a view: its
//! elements are never read). Their assertions and the SOACs' size
//! checks run only where the nest would have run them: those of the
//! outer body when `w1 > 0`, those of the inner one when `w2 > 0` too,
//! in the original order. What remains is `C[i][j] = Σ_p A[i][p]·B[j][p]`,
//! which the kernel computes. It regroups the sum (in blocks, in a
//! different order) and, where the machine has FMA, fuses each
//! multiply-add into one rounding: results may differ from the
//! interpreter's sequential sum in the last bits, as the parallel
//! reduction's already may: the order of a reduction with `+` is
//! unspecified (`+` on floats is treated as associative).
//!
//! Parallelism: at the top level the rows of `C` are split into one
//! contiguous block per thread (when there is enough work), each
//! thread calling the kernel on its block with a packing buffer of its
//! own; inside a thread the kernel runs on all rows. The kernel
//! (`runtime/gemm.h`) does the cache blocking, the packing and the
//! register-tiled micro-kernel.
//!
//! Limits: exactly this shape (a nest whose outer map has other inputs
//! or results, or whose reduction also computes other values, is not
//! matched), and threads only over the rows of `C` (a product with
//! fewer rows than threads uses fewer threads).

use super::array::Arr;
use super::{Lower, Result, Val};
use crate::ir::{Code, Exp, Gemm, Mat, I64};
use parad_base::{FloatType, PrimType, Scalar, Span};
use parad_core::{
    AccOp, BasicOp, BinOp, Exp as CExp, Lambda, Operand, Param, Reduce, Screma, Soac, Stm, Type,
    VName,
};
use rustc_hash::FxHashMap;

/// A product needs this many multiply-adds for the rows to be split
/// between threads.
const PAR_MIN_FLOPS: i64 = 1 << 17;

/// Products longer than this count as this long in the work estimate
/// (so that it does not overflow).
const WORK_K_CAP: i64 = 1 << 20;

/// One statement of a lambda body of the nest, in order.
enum Step<'a> {
    /// A statement on sizes, lowered once.
    Size(&'a Stm),
    /// The product's size checks (the `map` or the redomap over
    /// `[row, col]`): its width is `k`.
    Product {
        w: &'a Operand,
        arrs: [VName; 2],
        what: &'static str,
    },
    /// `name = size(product, 0)`, i.e. `k`.
    ProductSize(VName),
    /// The reduction's check that its width is `k`.
    ReduceWidth(&'a Operand),
}

/// The operands of `c = a · bᵀ`, `k` the length of the products.
struct Mats<'a> {
    elem: PrimType,
    a: &'a Arr,
    b: &'a Arr,
    c: &'a Arr,
    k: &'a Exp,
    span: usize,
}

/// A recognised nest.
struct Nest<'a> {
    elem: PrimType,
    w1: &'a Operand,
    a: VName,
    row: VName,
    outer: Vec<Step<'a>>,
    w2: &'a Operand,
    b: VName,
    col: VName,
    inner: Vec<Step<'a>>,
}

/// `Some(t)` when `p` is a parameter of type `[_]t`, `t` a float type
/// the kernel handles.
fn vector_of(p: &Param) -> Option<PrimType> {
    match &p.ty {
        Type::Array { elem, shape }
            if shape.len() == 1
                && matches!(elem, PrimType::Float(FloatType::F32 | FloatType::F64)) =>
        {
            Some(*elem)
        }
        _ => None,
    }
}

/// The body's one result variable.
fn single_result(lam: &Lambda) -> Option<VName> {
    match lam.body.result[..] {
        [Operand::Var(v)] => Some(v),
        _ => None,
    }
}

/// Whether `lam` is `\x y -> x * y` (or `y * x`) on `t`, possibly
/// through copies (`let z = x`), as AD leaves them.
fn is_mul(lam: &Lambda, t: PrimType) -> bool {
    let [x, y] = &lam.params[..] else {
        return false;
    };
    if x.ty != Type::Prim(t) || y.ty != Type::Prim(t) {
        return false;
    }
    // What each name stands for: a parameter, or the product.
    let mut alias: FxHashMap<VName, VName> = FxHashMap::default();
    let (px, py) = (x.name, y.name);
    alias.insert(px, px);
    alias.insert(py, py);
    let mut product = None;
    for s in &lam.body.stms {
        let [p] = &s.pat[..] else { return false };
        match &s.exp {
            CExp::Basic(BasicOp::Atom(Operand::Var(v))) => match alias.get(v) {
                Some(&w) => {
                    alias.insert(p.name, w);
                }
                None => return false,
            },
            CExp::Basic(BasicOp::BinOp(BinOp::Mul, t2, Operand::Var(a), Operand::Var(b)))
                if *t2 == t && product.is_none() =>
            {
                let args = (alias.get(a).copied(), alias.get(b).copied());
                if args != (Some(px), Some(py)) && args != (Some(py), Some(px)) {
                    return false;
                }
                product = Some(p.name);
                alias.insert(p.name, p.name);
            }
            _ => return false,
        }
    }
    product.is_some() && single_result(lam).and_then(|r| alias.get(&r).copied()) == product
}

/// Whether `op` is `+` on `t` with neutral element `+0`.
fn is_sum(op: &AccOp, t: PrimType) -> bool {
    let zero = match op.neutral[..] {
        [Operand::Const(Scalar::F64(x))] => x.to_bits() == 0,
        [Operand::Const(Scalar::F32(x))] => x.to_bits() == 0,
        _ => false,
    };
    zero && super::soac::is_add(op) == Some(t)
}

/// Whether `s` mentions `v`.
fn uses(s: &Stm, v: VName) -> bool {
    let mut found = false;
    parad_core::free::stm_uses(s, &mut |u| found |= u == v);
    found
}

/// Whether `s` only computes with sizes and cannot fail (assertions
/// aside, which are lowered under a guard): its arrays (`arrs`, the
/// nest's rows and product) are only asked for their sizes.
fn size_stm(s: &Stm, arrs: &[VName]) -> bool {
    let scalar_pat = s.pat.iter().all(|p| matches!(p.ty, Type::Prim(_)));
    match &s.exp {
        CExp::Basic(b) => match b {
            BasicOp::Size { .. } | BasicOp::Cmp(..) => scalar_pat,
            BasicOp::Atom(_) | BasicOp::UnOp(..) => scalar_pat,
            BasicOp::BinOp(op, _, _, _) => {
                scalar_pat
                    && matches!(
                        op,
                        BinOp::Add
                            | BinOp::Sub
                            | BinOp::Mul
                            | BinOp::Min
                            | BinOp::Max
                            | BinOp::And
                            | BinOp::Or
                            | BinOp::Xor
                    )
            }
            BasicOp::Assert { .. } => s.pat.is_empty(),
            BasicOp::Rearrange { arr, .. } => !arrs.contains(arr),
            _ => false,
        },
        _ => false,
    }
}

/// The inner lambda's body: size statements around the product and its
/// sum, which is the result.
fn inner_body(lam: &Lambda, row: VName, t: PrimType) -> Option<Vec<Step<'_>>> {
    let col = lam.params.first()?.name;
    let is_rows = |arrs: &[VName]| matches!(arrs, [u, v] if (*u == row && *v == col) || (*u == col && *v == row));
    let res = single_result(lam)?;
    let (last, init) = lam.body.stms.split_last()?;
    let mut steps = vec![];
    let mut product: Option<VName> = None;
    for s in init {
        let taken = [row, col, product.unwrap_or(row)];
        let map = match &s.exp {
            CExp::Soac(soac) => as_map(soac),
            _ => None,
        };
        match &s.exp {
            _ if map.is_some_and(|(_, arrs, lam)| {
                product.is_none() && is_rows(arrs) && is_mul(lam, t)
            }) =>
            {
                let (w, arrs, _) = map?;
                steps.push(Step::Product {
                    w,
                    arrs: [arrs[0], arrs[1]],
                    what: "map",
                });
                product = Some(s.pat.first()?.name);
            }
            CExp::Basic(BasicOp::Size { arr, dim: 0 }) if product == Some(*arr) => {
                steps.push(Step::ProductSize(s.pat.first()?.name));
            }
            _ if size_stm(s, &taken) && !product.is_some_and(|p| uses(s, p)) => {
                steps.push(Step::Size(s))
            }
            _ => return None,
        }
    }
    if last.pat.len() != 1 || last.pat[0].name != res {
        return None;
    }
    match (&last.exp, product) {
        (CExp::Soac(Soac::Reduce(Reduce { w, op, arrs, .. })), Some(p))
            if arrs[..] == [p] && is_sum(op, t) =>
        {
            steps.push(Step::ReduceWidth(w))
        }
        (CExp::Soac(Soac::Screma(sc)), None) if redomap(sc, t) && is_rows(&sc.arrs) => {
            steps.push(Step::Product {
                w: &sc.w,
                arrs: [sc.arrs[0], sc.arrs[1]],
                what: "reduce",
            });
        }
        _ => return None,
    }
    Some(steps)
}

/// The width, arrays and function of a map (or of a screma that is one).
fn as_map(s: &Soac) -> Option<(&Operand, &[VName], &Lambda)> {
    match s {
        Soac::Map(m) => Some((&m.w, &m.arrs, &m.lam)),
        Soac::Screma(sc) if sc.scans.is_empty() && sc.reds.is_empty() => {
            Some((&sc.w, &sc.arrs, &sc.lam))
        }
        _ => None,
    }
}

/// Whether `sc` is `screma(reds = [+ with 0], \x y -> x * y)`.
fn redomap(sc: &Screma, t: PrimType) -> bool {
    sc.scans.is_empty() && matches!(&sc.reds[..], [r] if is_sum(&r.op, t)) && is_mul(&sc.lam, t)
}

/// Recognises the nest in a map of width `w1` over `arrs`.
fn recognise<'a>(w1: &'a Operand, arrs: &[VName], lam: &'a Lambda) -> Option<Nest<'a>> {
    let ([a], [row_p]) = (arrs, &lam.params[..]) else {
        return None;
    };
    let elem = vector_of(row_p)?;
    let row = row_p.name;
    let res = single_result(lam)?;
    let (last, init) = lam.body.stms.split_last()?;
    let CExp::Soac(soac) = &last.exp else {
        return None;
    };
    let (w2, inner_arrs, inner_lam) = as_map(soac)?;
    if last.pat.len() != 1 || last.pat[0].name != res {
        return None;
    }
    let [b] = inner_arrs[..] else { return None };
    let [col_p] = &inner_lam.params[..] else {
        return None;
    };
    if vector_of(col_p)? != elem || b == row {
        return None;
    }
    let outer = init
        .iter()
        .map(|s| size_stm(s, &[row]).then_some(Step::Size(s)))
        .collect::<Option<Vec<_>>>()?;
    // The inner map's array must be the same for every row: not bound
    // from the row (size statements bind no array from it).
    let steps = inner_body(inner_lam, row, elem)?;
    Some(Nest {
        elem,
        w1,
        a: *a,
        row,
        outer,
        w2,
        b,
        col: col_p.name,
        inner: steps,
    })
}

impl Lower {
    /// The SOAC `s` bound to `pat` as a matrix multiplication, or `None`
    /// (having emitted nothing) when it does not have that shape.
    pub(crate) fn tiled(
        &mut self,
        s: &Soac,
        pat: &[Param],
        span: Span,
    ) -> Result<Option<Vec<Val>>> {
        let Some((w, arrs, lam)) = as_map(s) else {
            return Ok(None);
        };
        let Some(nest) = recognise(w, arrs, lam) else {
            return Ok(None);
        };
        if pat.len() != 1 || !matches!(self.env.get(&nest.a), Some(Val::Array(x)) if x.rank() == 2)
        {
            return Ok(None);
        }
        self.matmul(&nest, &pat[0], span).map(Some)
    }

    fn matmul(&mut self, n: &Nest, pat: &Param, span: Span) -> Result<Vec<Val>> {
        let w1 = self.operand(n.w1)?;
        let w1 = self.name_exp("w", I64, w1);
        let a = self.arr(n.a)?;
        self.check_outer(&a, &w1, "map", span);
        let guard1 = Exp::lt(Exp::i64(0), w1.clone());
        let row = a.row(Exp::i64(0));
        self.env.insert(n.row, Val::Array(row.clone()));
        self.size_steps(&n.outer, &guard1, span)?;
        let w2 = self.operand(n.w2)?;
        let w2 = self.name_exp("w", I64, w2);
        let b = self.arr(n.b)?;
        self.guarded(&guard1, |l| {
            l.check_outer(&b, &w2, "map", span);
            Ok(())
        })?;
        let guard2 = Exp::and(guard1, Exp::lt(Exp::i64(0), w2.clone()));
        self.env.insert(n.col, Val::Array(b.row(Exp::i64(0))));
        let k = self.size_steps(&n.inner, &guard2, span)?;
        let k =
            k.ok_or_else(|| super::LowerError("internal error: a product without width".into()))?;
        let cols = self.inner_width(pat, &w1, w2)?;
        let c = self.alloc(pat.name, n.elem, vec![w1.clone(), cols], span);
        let span = self.span_id(span);
        self.gemm_rows(n.elem, &a, &b, &c, &k, span)?;
        Ok(vec![Val::Array(c)])
    }

    /// The size of the result's rows: the type's, else (an existential
    /// size) `w2`, or 0 when there are no rows, as for any map whose
    /// function did not run.
    fn inner_width(&mut self, pat: &Param, w1: &Exp, w2: Exp) -> Result<Exp> {
        match pat.ty.shape().get(1) {
            Some(d) if *d != parad_core::Dim::Ext => self.dim(d),
            _ => Ok(Exp::Select(
                Box::new(Exp::lt(Exp::i64(0), w1.clone())),
                Box::new(w2),
                Box::new(Exp::i64(0)),
            )),
        }
    }

    /// Lowers the size statements of a lambda body once, its checks
    /// under `guard` (where the lambda runs at all); returns the width
    /// of the product, if there is one.
    fn size_steps(&mut self, steps: &[Step], guard: &Exp, span: Span) -> Result<Option<Exp>> {
        let mut k = None;
        for st in steps {
            match st {
                Step::Size(s) if matches!(s.exp, CExp::Basic(BasicOp::Assert { .. })) => {
                    self.guarded(guard, |l| l.stm(s))?
                }
                Step::Size(s) => self.stm(s)?,
                Step::ProductSize(v) => {
                    let w = k.clone().unwrap_or(Exp::i64(0));
                    self.env.insert(*v, Val::Scalar(w, I64));
                }
                Step::Product { w, arrs, what } => {
                    let w = self.operand(w)?;
                    let w = self.name_exp("k", I64, w);
                    let xs: Vec<Arr> = arrs.iter().map(|v| self.arr(*v)).collect::<Result<_>>()?;
                    self.guarded(guard, |l| {
                        for x in &xs {
                            l.check_outer(x, &w, what, span);
                        }
                        Ok(())
                    })?;
                    k = Some(w);
                }
                Step::ReduceWidth(w) => {
                    let w = self.operand(w)?;
                    let kw = k.clone().unwrap_or(Exp::i64(0));
                    let len = Arr::fresh(self.fresh("product"), I64, vec![kw]);
                    self.guarded(guard, |l| {
                        l.check_outer(&len, &w, "reduce", span);
                        Ok(())
                    })?;
                }
            }
        }
        Ok(k)
    }

    /// Emits what `f` emits under `if (cond)` (it must bind nothing used
    /// later).
    fn guarded(&mut self, cond: &Exp, f: impl FnOnce(&mut Lower) -> Result<()>) -> Result<()> {
        let code = self.nested(f)?;
        if !code.is_empty() {
            self.emit(Code::If {
                cond: cond.clone(),
                then_br: code,
                else_br: vec![],
            });
        }
        Ok(())
    }

    /// `c = a · bᵀ`, the rows of `c` split between threads at the top
    /// level.
    #[allow(clippy::too_many_arguments)]
    fn gemm_rows(
        &mut self,
        elem: PrimType,
        a: &Arr,
        b: &Arr,
        c: &Arr,
        k: &Exp,
        span: usize,
    ) -> Result<()> {
        let (m, n) = (c.shape[0].clone(), c.shape[1].clone());
        let mats = Mats {
            elem,
            a,
            b,
            c,
            k,
            span,
        };
        if !self.par {
            let like = self.fresh("pack");
            let pack = self.new_mem(like);
            self.emit_gemm(&mats, &Exp::i64(0), &m, pack);
            if self.repeat == 0 {
                self.emit(Code::Unref(pack));
            }
            return Ok(());
        }
        // Work (multiply-adds), with the length of the products capped.
        let work = Exp::times(
            Exp::times(m.clone(), n),
            Exp::min(k.clone(), Exp::i64(WORK_K_CAP)),
        );
        let enough = Exp::cmp(parad_core::CmpOp::Le, I64, Exp::i64(PAR_MIN_FLOPS), work);
        let chunks = Exp::Select(
            Box::new(enough),
            Box::new(Exp::min(Exp::NumThreads, m.clone())),
            Box::new(Exp::i64(1)),
        );
        let chunks = self.name_exp("nchunks", I64, chunks);
        let ch = self.fresh("chunk");
        self.par_for(ch, chunks.clone(), |l| {
            let bound = |c: Exp| Exp::over(Exp::times(c, m.clone()), chunks.clone());
            let lo = l.name_exp("lo", I64, bound(Exp::Var(ch)));
            let hi = bound(Exp::plus(Exp::Var(ch), Exp::i64(1)));
            let rows = l.name_exp("rows", I64, Exp::minus(hi, lo.clone()));
            let like = l.fresh("pack");
            let pack = l.new_mem(like);
            l.emit_gemm(&mats, &lo, &rows, pack);
            Ok(())
        })
    }

    /// Rows `lo..lo + rows` of `c = a · bᵀ`.
    fn emit_gemm(&mut self, x: &Mats, lo: &Exp, rows: &Exp, pack: VName) {
        let Mats {
            elem,
            a,
            b,
            c,
            k,
            span,
        } = *x;
        let at = |x: &Arr| {
            Exp::plus(
                x.offset.clone(),
                Exp::times(lo.clone(), x.strides[0].clone()),
            )
        };
        self.emit(Code::Gemm(Box::new(Gemm {
            elem,
            m: rows.clone(),
            n: c.shape[1].clone(),
            k: k.clone(),
            a: Mat {
                mem: a.mem,
                offset: at(a),
                rows: a.strides[0].clone(),
                cols: a.strides[1].clone(),
            },
            // The kernel's B[p][j] is b[j][p].
            b: Mat {
                mem: b.mem,
                offset: b.offset.clone(),
                rows: b.strides[1].clone(),
                cols: b.strides[0].clone(),
            },
            c: Mat {
                mem: c.mem,
                offset: at(c),
                rows: c.strides[0].clone(),
                cols: c.strides[1].clone(),
            },
            pack,
            span,
        })));
    }
}
