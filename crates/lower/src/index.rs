//! Indexing, slicing, in-place updates, ranges and array literals. An
//! array of tuples is a tuple of arrays, so each operation is applied to
//! every leaf array with the same slice.

use crate::apply::size;
use crate::error::{LowerError, R};
use crate::value::{array_parts, from_names, types_of, Env, SV};
use crate::Lowerer;
use parad_base::{IntType, PrimType, Span};
use parad_core::BasicOp;
use parad_core::{BinOp, Builder, CmpOp, ConvOp, DimIndex, Exp, Operand, VName};
use parad_types::tast::{Dim, RangeKind, TDimIndex, TExp, Type};
use parad_values::Scalar;

const I64: PrimType = PrimType::Int(IntType::I64);

impl<'p> Lowerer<'p> {
    /// A scalar expression as an `i64` operand (indices may be of any
    /// integer type).
    fn i64_operand(&mut self, b: &mut Builder, env: &Env<'p>, e: &'p TExp) -> R<Operand> {
        let SV::Prim(o) = self.exp(b, env, e)? else {
            return Err(LowerError::bug(e.span, "index is not a scalar"));
        };
        Ok(to_i64(b, o))
    }

    /// The core slice for `idx` on an array whose first leaf is `leaf`.
    fn slice(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        leaf: Option<VName>,
        idx: &'p [TDimIndex],
        span: Span,
    ) -> R<Vec<DimIndex>> {
        // Operands first, then one check of every slice (with the values
        // in its message, as Futhark reports it), then the dimensions.
        let mut parts = vec![];
        let (mut text, mut args, mut ok) = (vec![], vec![], None::<Operand>);
        for (k, d) in idx.iter().enumerate() {
            match d {
                TDimIndex::Fix(e) => {
                    let x = self.i64_operand(b, env, e)?;
                    text.push("{}".to_string());
                    args.push(x);
                    parts.push(Err(x));
                }
                TDimIndex::Slice { start, end, stride } => {
                    let leaf = leaf.ok_or_else(|| {
                        LowerError::unsupported(span, "slicing an array of empty tuples")
                    })?;
                    let mut get = |e: &'p Option<TExp>, this: &mut Self| {
                        e.as_ref().map(|e| this.i64_operand(b, env, e)).transpose()
                    };
                    let i = get(start, self)?;
                    let j = get(end, self)?;
                    let s = get(stride, self)?;
                    let mut t = String::new();
                    for (n, x) in [i, j, s].into_iter().enumerate() {
                        if n == 2 && x.is_none() {
                            break;
                        }
                        if n > 0 {
                            t.push(':');
                        }
                        if let Some(x) = x {
                            t.push_str("{}");
                            args.push(x);
                        }
                    }
                    text.push(t);
                    b.set_span(span);
                    let n = size(b, leaf, k);
                    let dim = slice_bounds(b, n, i, j, s);
                    ok = Some(match ok {
                        None => dim.ok,
                        Some(prev) => Operand::Var(b.binop(BinOp::And, prev, dim.ok)),
                    });
                    parts.push(Ok(dim));
                }
            }
        }
        if let (Some(ok), Some(leaf)) = (ok, leaf) {
            let rank = b.type_of(leaf).rank();
            let shape: Vec<Operand> = (0..rank).map(|k| size(b, leaf, k)).collect();
            let msg = format!(
                "Index [{}] out of bounds for array of shape {}.",
                text.join(", "),
                "[{}]".repeat(rank)
            );
            args.extend(shape);
            b.assert_with(ok, msg, args);
        }
        Ok(parts
            .into_iter()
            .map(|p| match p {
                Err(x) => DimIndex::Fix(x),
                Ok(d) => d.index(b),
            })
            .collect())
    }

    pub fn index(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        a: SV<'p>,
        t: &Type,
        idx: &'p [TDimIndex],
        span: Span,
    ) -> R<SV<'p>> {
        // `x[]` is `x` itself, whatever its type.
        if idx.is_empty() {
            return Ok(a);
        }
        let leaves = a.arrays(span)?;
        let slice = self.slice(b, env, leaves.first().copied(), idx, span)?;
        b.set_span(span);
        let _ = t;
        a.map_leaves(&mut |o| {
            let arr = o
                .var()
                .ok_or_else(|| LowerError::bug(span, "index of a scalar"))?;
            let r = b.emit1_as(
                "idx",
                Exp::Basic(BasicOp::Index {
                    arr,
                    slice: slice.clone(),
                }),
            );
            Ok(if b.type_of(r).rank() == 0 {
                SV::Prim(Operand::Var(r))
            } else {
                SV::Arr(r)
            })
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        a: SV<'p>,
        t: &Type,
        idx: &'p [TDimIndex],
        v: SV<'p>,
        span: Span,
    ) -> R<SV<'p>> {
        // `x with [] = v` is `v`.
        if idx.is_empty() {
            return Ok(v);
        }
        let arrs = a.arrays(span)?;
        let vals = v.leaves(span)?;
        if arrs.len() != vals.len() {
            return Err(LowerError::bug(span, "update value does not fit the array"));
        }
        let slice = self.slice(b, env, arrs.first().copied(), idx, span)?;
        b.set_span(span);
        let names: Vec<VName> = arrs
            .iter()
            .zip(vals)
            .map(|(&arr, value)| {
                b.emit1_as(
                    "upd",
                    Exp::Basic(BasicOp::Update {
                        arr,
                        slice: slice.clone(),
                        value,
                    }),
                )
            })
            .collect();
        let (r, elem) = array_parts(t);
        from_names(elem, r, &names, span)
    }

    /// `start..second..end` as an `iota`, after checking that it is valid.
    #[allow(clippy::too_many_arguments)]
    pub fn range(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        start: &'p TExp,
        second: Option<&'p TExp>,
        end: &'p TExp,
        kind: &RangeKind,
        span: Span,
    ) -> R<SV<'p>> {
        let it = match env.resolve(&start.ty) {
            Type::Prim(PrimType::Int(it)) => it,
            t => return Err(LowerError::bug(span, format!("range of type {t}"))),
        };
        let prim = |e| match e {
            SV::Prim(o) => Ok(o),
            _ => Err(LowerError::bug(span, "range bound is not a scalar")),
        };
        let a = prim(self.exp(b, env, start)?)?;
        let snd = second
            .map(|e| self.exp(b, env, e).and_then(prim))
            .transpose()?;
        let e = prim(self.exp(b, env, end)?)?;
        b.set_span(span);
        let (a64, e64) = (to_i64(b, a), to_i64(b, e));
        let down = matches!(kind, RangeKind::DownToExclusive);
        let step = match snd {
            Some(s) => {
                let s64 = to_i64(b, s);
                Operand::Var(b.sub(s64, a64))
            }
            None => Operand::i64(if down { -1 } else { 1 }),
        };
        // Validity first (a zero step must not reach the division), then
        // the number of elements, in i64.
        let dist = Operand::Var(b.sub(e64, a64));
        let zero = Operand::i64(0);
        let ok = match kind {
            RangeKind::UpToExclusive => {
                let pos = b.cmp(CmpOp::Gt, step, zero);
                let ord = b.cmp(CmpOp::Le, a64, e64);
                b.binop(BinOp::And, pos, ord)
            }
            RangeKind::DownToExclusive => {
                let neg = b.cmp(CmpOp::Lt, step, zero);
                let ord = b.cmp(CmpOp::Ge, a64, e64);
                b.binop(BinOp::And, neg, ord)
            }
            RangeKind::Inclusive => {
                // Ascending if step > 0 (needs a <= e), descending if < 0.
                let pos = b.cmp(CmpOp::Gt, step, zero);
                let neg = b.cmp(CmpOp::Lt, step, zero);
                let le = b.cmp(CmpOp::Le, a64, e64);
                let ge = b.cmp(CmpOp::Ge, a64, e64);
                let up = b.binop(BinOp::And, pos, le);
                let dn = b.binop(BinOp::And, neg, ge);
                b.binop(BinOp::Or, up, dn)
            }
        };
        let text = match kind {
            RangeKind::UpToExclusive => "..<",
            RangeKind::DownToExclusive => "..>",
            RangeKind::Inclusive => "...",
        };
        // The message shows the values, as Futhark's does.
        let (msg, args) = match snd {
            Some(s2) => (
                format!("Range {{}}..{{}}{text}{{}} is invalid"),
                vec![a, s2, e],
            ),
            None => (format!("Range {{}}{text}{{}} is invalid"), vec![a, e]),
        };
        b.assert_with(ok, msg, args);
        // With a valid range the step is non-zero.
        let n = match kind {
            RangeKind::Inclusive => {
                let q = b.binop(BinOp::Quot, dist, step);
                Operand::Var(b.add(q, Operand::i64(1)))
            }
            _ => ceil_div(b, dist, step),
        };
        let n = Operand::Var(b.binop(BinOp::Max, n, zero));
        let step = conv(b, step, PrimType::Int(it));
        let r = b.emit1_as(
            "range",
            Exp::Basic(BasicOp::Iota {
                n,
                start: a,
                step,
                it,
            }),
        );
        Ok(SV::Arr(r))
    }

    /// `[e1, e2, …]`: a scratch array per leaf, filled row by row.
    pub fn array_lit(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        es: &'p [TExp],
        t: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let vals: Vec<Vec<Operand>> = es
            .iter()
            .map(|e| self.exp(b, env, e)?.leaves(e.span))
            .collect::<R<_>>()?;
        b.set_span(span);
        let (r, elem) = array_parts(t);
        let row_t = Type::array(elem.clone(), r as u32 - 1);
        let row_types = types_of(&row_t, 0, span)?;
        let n = es.len() as i64;
        // An empty literal's rows have the sizes its type gives where they
        // are known (`[] : [0][d]i32`), else 0.
        let outer: Vec<Dim> = match t {
            Type::Array(_, ds) => ds.clone(),
            _ => vec![],
        };
        let mut names = vec![];
        for (k, rt) in row_types.iter().enumerate() {
            let Some(p) = rt.elem() else {
                return Err(LowerError::unsupported(
                    span,
                    "accumulators cannot be stored in arrays",
                ));
            };
            let mut shape = vec![Operand::i64(n)];
            for d in 0..rt.rank() {
                shape.push(match vals.first().map(|v| v[k]) {
                    Some(Operand::Var(a)) => size(b, a, d),
                    _ => outer
                        .get(d + 1)
                        .and_then(|dim| self.dim_value(b, env, dim))
                        .unwrap_or(Operand::i64(0)),
                });
            }
            let mut arr = b.emit1_as("arr", Exp::Basic(BasicOp::Scratch { elem: p, shape }));
            for (i, v) in vals.iter().enumerate() {
                arr = b.emit1_as(
                    "arr",
                    Exp::Basic(BasicOp::Update {
                        arr,
                        slice: vec![DimIndex::Fix(Operand::i64(i as i64))],
                        value: v[k],
                    }),
                );
            }
            names.push(arr);
        }
        from_names(elem, r, &names, span)
    }
}

/// One dimension of a slice `i:j:s`, with Futhark's defaults filled in,
/// and whether it is valid.
struct SliceBounds {
    i: Operand,
    j: Operand,
    s: Operand,
    ok: Operand,
}

impl SliceBounds {
    /// The slice's dimension; only once `ok` holds (the length divides
    /// by the stride).
    fn index(self, b: &mut Builder) -> DimIndex {
        let dist = Operand::Var(b.sub(self.j, self.i));
        let len = ceil_div(b, dist, self.s);
        DimIndex::Slice {
            start: self.i,
            len,
            stride: self.s,
        }
    }
}

/// The bounds of a slice `i:j:s` of a dimension of size `n`, with
/// Futhark's defaults and validity check.
fn slice_bounds(
    b: &mut Builder,
    n: Operand,
    i: Option<Operand>,
    j: Option<Operand>,
    s: Option<Operand>,
) -> SliceBounds {
    let zero = Operand::i64(0);
    let one = Operand::i64(1);
    let s = s.unwrap_or(one);
    let neg = Operand::Var(b.cmp(CmpOp::Lt, s, zero));
    let nm1 = Operand::Var(b.sub(n, one));
    let i = i.unwrap_or_else(|| select(b, neg, nm1, zero));
    let j = j.unwrap_or_else(|| select(b, neg, Operand::i64(-1), n));
    // Valid, as in Futhark: a non-zero stride; going up, 0 <= i <= j with
    // every element in bounds (`7:9:2` of 8 elements is `[7]`) or i <= n
    // if the slice is empty; going down, j <= i with every element in
    // bounds, or any i if empty.
    let nonzero = Operand::Var(b.cmp(CmpOp::Ne, s, zero));
    let safe_s = select(b, nonzero, s, one);
    let dist = Operand::Var(b.sub(j, i));
    let len = ceil_div(b, dist, safe_s);
    let lm1 = Operand::Var(b.sub(len, one));
    let off = Operand::Var(b.mul(lm1, safe_s));
    let last = Operand::Var(b.add(i, off));
    let empty = Operand::Var(b.cmp(CmpOp::Eq, i, j));
    let up_ok = {
        let a = b.cmp(CmpOp::Le, zero, i);
        let c = b.cmp(CmpOp::Le, i, j);
        let in_n = b.cmp(CmpOp::Le, i, n);
        let e = b.binop(BinOp::And, empty, in_n);
        let l = b.cmp(CmpOp::Lt, last, n);
        let el = b.binop(BinOp::Or, e, l);
        let ac = b.binop(BinOp::And, a, c);
        Operand::Var(b.binop(BinOp::And, ac, el))
    };
    let down_ok = {
        let c = b.cmp(CmpOp::Le, j, i);
        let d = b.cmp(CmpOp::Lt, i, n);
        let l = b.cmp(CmpOp::Le, zero, last);
        let dl = b.binop(BinOp::And, d, l);
        let edl = b.binop(BinOp::Or, empty, dl);
        Operand::Var(b.binop(BinOp::And, c, edl))
    };
    let dir_ok = select(b, neg, down_ok, up_ok);
    let ok = Operand::Var(b.binop(BinOp::And, nonzero, dir_ok));
    SliceBounds { i, j, s, ok }
}

/// `ceil(d / s)` for `d` and `s` of the same sign (0 otherwise clamps
/// later), in `i64`.
fn ceil_div(b: &mut Builder, d: Operand, s: Operand) -> Operand {
    // (d + s - sgn(s)) quot s
    let sg = b.unop(parad_core::UnOp::Signum, s);
    let t = b.add(d, s);
    let t = b.sub(t, sg);
    let q = b.binop(BinOp::Quot, t, s);
    let zero = Operand::i64(0);
    Operand::Var(b.binop(BinOp::Max, q, zero))
}

fn select(b: &mut Builder, c: Operand, x: Operand, y: Operand) -> Operand {
    if let Operand::Const(Scalar::Bool(k)) = c {
        return if k { x } else { y };
    }
    let r = b.if_(c, |_| vec![x], |_| vec![y]);
    Operand::Var(r[0])
}

/// Converts an integer operand to `i64`.
pub fn to_i64(b: &mut Builder, o: Operand) -> Operand {
    conv(b, o, I64)
}

/// Converts operand `o` to prim type `to` (constants folded).
pub fn conv(b: &mut Builder, o: Operand, to: PrimType) -> Operand {
    let from = b.type_of(o).as_prim().expect("conversion of a scalar");
    if from == to {
        return o;
    }
    Operand::Var(b.emit1_as("conv", Exp::Basic(BasicOp::Conv(ConvOp::Cast, from, to, o))))
}
