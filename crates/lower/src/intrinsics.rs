//! The type checker's intrinsics (see `parad_types::intrinsics`, whose
//! table gives their arity; dispatch is on its key `Intrinsic`) in core
//! IR: scalar operators become core operations, array intrinsics become
//! SOACs and array operations applied to every leaf, and `__jvp2`/`__vjp2`
//! become AD nodes whose lambda is the inlined function.

use crate::apply::size;
use crate::error::{LowerError, R};
use crate::index::conv;
use crate::value::{from_names, num_scalar, result_types_of, types_of, Env, SV};
use crate::Lowerer;
use parad_base::{FloatType, IntType, PrimType, Span};
use parad_core::{
    AccOp, BinOp, Builder, CmpOp, ConvOp, Exp, Lambda, Operand, ScatterDest, TernOp, UnOp, VName,
};
use parad_core::{AdOp, BasicOp, Hist, Jvp, Map, Reduce, Scan, Scatter, Soac, Vjp, WithVjp};
use parad_types::intrinsics::Intrinsic as I;
use parad_types::tast::Type;

fn prim_arg(a: &SV<'_>, span: Span) -> R<Operand> {
    match a {
        SV::Prim(o) => Ok(*o),
        _ => Err(LowerError::bug(
            span,
            "scalar operator applied to a non-scalar",
        )),
    }
}

fn prim_type(t: &Type, span: Span) -> R<PrimType> {
    match t {
        Type::Prim(p) => Ok(*p),
        _ => Err(LowerError::bug(
            span,
            format!("scalar intrinsic at type {t}"),
        )),
    }
}

impl<'p> Lowerer<'p> {
    pub fn intrinsic(
        &mut self,
        b: &mut Builder,
        name: I,
        inst: &[Type],
        args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        b.set_span(span);
        if name.is_array() {
            return self.array_intrinsic(b, name, inst, args, span);
        }
        if name == I::Eq || name == I::Neq {
            let e = self.equal(b, &args[0], &args[1], span)?;
            return Ok(SV::Prim(if name == I::Neq {
                Operand::Var(b.unop(UnOp::Not, e))
            } else {
                e
            }));
        }
        let ops: Vec<Operand> = args.iter().map(|a| prim_arg(a, span)).collect::<R<_>>()?;
        let t = prim_type(&inst[0], span)?;
        Ok(SV::Prim(Operand::Var(scalar(
            b, name, t, inst, &ops, span,
        )?)))
    }

    /// Structural equality of two values of the same type.
    fn equal(&mut self, b: &mut Builder, x: &SV<'p>, y: &SV<'p>, span: Span) -> R<Operand> {
        let mut rec =
            |s: &mut Self, b: &mut Builder, x: &SV<'p>, y: &SV<'p>| s.equal(b, x, y, span);
        match (x, y) {
            (SV::Tuple(xs), SV::Tuple(ys)) => {
                let mut acc = Operand::bool(true);
                for (a, c) in xs.iter().zip(ys) {
                    let e = rec(self, b, a, c)?;
                    acc = and_op(b, acc, e);
                }
                return Ok(acc);
            }
            (SV::Record(xs), SV::Record(ys)) => {
                let mut acc = Operand::bool(true);
                for ((_, a), (_, c)) in xs.iter().zip(ys) {
                    let e = rec(self, b, a, c)?;
                    acc = and_op(b, acc, e);
                }
                return Ok(acc);
            }
            (SV::Sum(..), SV::Sum(..)) => {
                if let Some(e) = self.sum_equal(b, x, y, span, &mut rec)? {
                    return Ok(e);
                }
            }
            _ => {}
        }
        let xs = x.leaves(span)?;
        let ys = y.leaves(span)?;
        let mut acc = Operand::bool(true);
        for (a, c) in xs.into_iter().zip(ys) {
            let ta = b.type_of(a);
            let e = match ta.as_prim() {
                Some(_) => Operand::Var(b.cmp(CmpOp::Eq, a, c)),
                None => array_equal(b, a.var().unwrap(), c.var().unwrap()),
            };
            acc = if acc == Operand::bool(true) {
                e
            } else {
                Operand::Var(b.binop(BinOp::And, acc, e))
            };
        }
        Ok(acc)
    }

    fn array_intrinsic(
        &mut self,
        b: &mut Builder,
        intrinsic: I,
        inst: &[Type],
        mut args: Vec<SV<'p>>,
        span: Span,
    ) -> R<SV<'p>> {
        let ty = |i: usize| inst[i].clone();
        let arrays = |v: &SV<'p>| v.arrays(span);
        let name = intrinsic.name();
        match intrinsic {
            I::Map => {
                let xs = args.pop().unwrap();
                let f = args.pop().unwrap();
                self.map(b, f, xs, &ty(0), &ty(1), span)
            }
            I::Reduce | I::ReduceComm | I::Scan => {
                let xs = args.pop().unwrap();
                let ne = args.pop().unwrap();
                let op = args.pop().unwrap();
                let arrs = arrays(&xs)?;
                let w = width(b, &arrs, span)?;
                let op = self.operator(b, op, ne, &ty(0), span)?;
                b.set_span(span);
                let exp = if intrinsic == I::Scan {
                    Exp::Soac(Soac::Scan(Scan { w, op, arrs }))
                } else {
                    Exp::Soac(Soac::Reduce(Reduce {
                        w,
                        comm: intrinsic == I::ReduceComm,
                        op,
                        arrs,
                    }))
                };
                let outer = usize::from(intrinsic == I::Scan);
                let names = b.emit_as(if outer == 1 { "scan" } else { "red" }, exp);
                from_names(&ty(0), outer, &names, span)
            }
            I::Hist => {
                let vs = args.pop().unwrap();
                let is = args.pop().unwrap();
                let ne = args.pop().unwrap();
                let op = args.pop().unwrap();
                let dest = args.pop().unwrap();
                let inds = arrays(&is)?;
                let vals = arrays(&vs)?;
                let w = width(b, &inds, span)?;
                same_width(b, w, &vals, span)?;
                let op = self.operator(b, op, ne, &ty(0), span)?;
                b.set_span(span);
                let names = b.emit_as(
                    "hist",
                    Exp::Soac(Soac::Hist(Hist {
                        w,
                        dests: arrays(&dest)?,
                        op,
                        inds,
                        vals,
                    })),
                );
                from_names(&ty(0), 1, &names, span)
            }
            I::Scatter => {
                let vs = args.pop().unwrap();
                let is = args.pop().unwrap();
                let dest = args.pop().unwrap();
                let inds = arrays(&is)?;
                let vals = arrays(&vs)?;
                let w = width(b, &inds, span)?;
                same_width(b, w, &vals, span)?;
                let dests = arrays(&dest)?
                    .into_iter()
                    .zip(vals)
                    .map(|(arr, vals)| ScatterDest {
                        arr,
                        inds: inds.clone(),
                        vals,
                    })
                    .collect();
                let names = b.emit_as("scatter", Exp::Soac(Soac::Scatter(Scatter { w, dests })));
                from_names(&ty(0), 1, &names, span)
            }
            I::Iota => {
                let n = prim_arg(&args[0], span)?;
                let r = b.emit1_as(
                    "iota",
                    Exp::Basic(BasicOp::Iota {
                        n,
                        start: Operand::i64(0),
                        step: Operand::i64(1),
                        it: IntType::I64,
                    }),
                );
                Ok(SV::Arr(r))
            }
            I::Replicate => {
                let n = prim_arg(&args[0], span)?;
                args[1].map_leaves(&mut |value| {
                    Ok(SV::Arr(b.emit1_as(
                        "rep",
                        Exp::Basic(BasicOp::Replicate { n, value }),
                    )))
                })
            }
            I::Concat => {
                let xs = arrays(&args[0])?;
                let ys = arrays(&args[1])?;
                let names: Vec<VName> = xs
                    .into_iter()
                    .zip(ys)
                    .map(|(x, y)| {
                        b.emit1_as("concat", Exp::Basic(BasicOp::Concat { arrs: vec![x, y] }))
                    })
                    .collect();
                from_names(&ty(0), 1, &names, span)
            }
            // A copy of a function value is the function.
            I::Copy if matches!(args[0], SV::Fun(..)) => Ok(args.pop().expect("argument")),
            I::Transpose | I::Flatten | I::Copy => args[0].map_leaves(&mut |o| {
                let arr = match o {
                    // A copy of a scalar is the scalar.
                    Operand::Var(v) if b.type_of(v).rank() > 0 => v,
                    _ => return Ok(SV::Prim(o)),
                };
                let exp = match intrinsic {
                    I::Transpose => {
                        let r = b.type_of(arr).rank();
                        let mut perm: Vec<usize> = (0..r).collect();
                        perm.swap(0, 1);
                        Exp::Basic(BasicOp::Rearrange { arr, perm })
                    }
                    I::Flatten => Exp::Basic(BasicOp::Flatten { arr }),
                    _ => Exp::Basic(BasicOp::Copy { arr }),
                };
                let r = b.emit1_as("a", exp);
                Ok(if b.type_of(r).rank() == 0 {
                    SV::Prim(Operand::Var(r))
                } else {
                    SV::Arr(r)
                })
            }),
            I::Unflatten => {
                let n = prim_arg(&args[0], span)?;
                let m = prim_arg(&args[1], span)?;
                args[2].map_leaves(&mut |o| {
                    let arr = o.var().expect("array leaf");
                    Ok(SV::Arr(b.emit1_as(
                        "unflat",
                        Exp::Basic(BasicOp::Unflatten { arr, n, m }),
                    )))
                })
            }
            I::Zip => {
                let ys = args.pop().unwrap();
                let xs = args.pop().unwrap();
                let (ax, ay) = (arrays(&xs)?, arrays(&ys)?);
                if let (Some(&x), Some(_)) = (ax.first(), ay.first()) {
                    let w = size(b, x, 0);
                    same_width(b, w, &ay, span)?;
                }
                Ok(SV::Tuple(vec![xs, ys]))
            }
            I::Unzip => Ok(SV::Tuple(vec![
                args[0].project("0", span)?,
                args[0].project("1", span)?,
            ])),
            I::Jvp2 | I::Vjp2 => {
                let seed = args.pop().unwrap();
                let x = args.pop().unwrap();
                let f = args.pop().unwrap();
                let (a, r) = (ty(0), ty(1));
                let lam = self.lambda(b, std::slice::from_ref(&a), &r, span, |s, b, xs| {
                    s.apply(b, f, xs, span)
                })?;
                let primals = x.leaves(span)?;
                let seeds = seed.leaves(span)?;
                b.set_span(span);
                let exp = if intrinsic == I::Jvp2 {
                    Exp::Ad(AdOp::Jvp(Jvp {
                        lam,
                        primals,
                        tangents: seeds,
                    }))
                } else {
                    Exp::Ad(AdOp::Vjp(Vjp {
                        lam,
                        primals,
                        adjoints: seeds,
                    }))
                };
                let names = b.emit_as("ad", exp);
                let k = types_of(&r, 0, span)?.len();
                let second = if intrinsic == I::Jvp2 { &r } else { &a };
                Ok(SV::Tuple(vec![
                    from_names(&r, 0, &names[..k], span)?,
                    from_names(second, 0, &names[k..], span)?,
                ]))
            }
            I::WithVjp => {
                let x = args.pop().unwrap();
                let f_adj = args.pop().unwrap();
                let f = args.pop().unwrap();
                let (a, r) = (ty(0), ty(1));
                let lam = self.lambda(b, std::slice::from_ref(&a), &r, span, |s, b, xs| {
                    s.apply(b, f, xs, span)
                })?;
                let adj = self.lambda(b, &[r.clone(), r.clone()], &a, span, |s, b, xs| {
                    s.apply(b, f_adj, xs, span)
                })?;
                let args = x.leaves(span)?;
                b.set_span(span);
                let names = b.emit_as("custom", Exp::Ad(AdOp::WithVjp(WithVjp { lam, adj, args })));
                from_names(&r, 0, &names, span)
            }
            I::FlatIndex2d | I::FlatIndex3d | I::FlatIndex4d => {
                let ops: Vec<Operand> = args[1..]
                    .iter()
                    .map(|a| prim_arg(a, span))
                    .collect::<R<_>>()?;
                let (offset, dims) = (ops[0], &ops[1..]);
                b.set_span(span);
                args[0].map_leaves(&mut |o| {
                    let xs = o.var().expect("array leaves are variables");
                    Ok(SV::Arr(flat_view(b, xs, offset, dims, Operand::i64(0))))
                })
            }
            I::FlatUpdate2d | I::FlatUpdate3d | I::FlatUpdate4d => {
                let vs = args.pop().unwrap();
                let ops: Vec<Operand> = args[1..]
                    .iter()
                    .map(|a| prim_arg(a, span))
                    .collect::<R<_>>()?;
                let (offset, strides) = (ops[0], &ops[1..]);
                b.set_span(span);
                let vals = vs.leaves(span)?;
                let mut k = 0;
                args[0].map_leaves(&mut |o| {
                    let d = o.var().expect("array leaves are variables");
                    let v = vals[k].var().expect("array leaves are variables");
                    k += 1;
                    Ok(SV::Arr(flat_write(b, d, offset, strides, v)))
                })
            }
            I::ScatterStream | I::HistStream => {
                let bs = args.pop().unwrap();
                let f = args.pop().unwrap();
                let op = if intrinsic == I::HistStream {
                    let ne = args.pop().unwrap();
                    let op = args.pop().unwrap();
                    Some(self.operator(b, op, ne, &ty(0), span)?)
                } else {
                    None
                };
                let dest = args.pop().unwrap();
                self.acc_stream(b, dest, op, f, bs, &ty(0), &ty(1), span)
            }
            I::AccWrite => {
                let v = args.pop().unwrap();
                let i = prim_arg(&args.pop().unwrap(), span)?;
                let SV::Acc(acc) = args.pop().unwrap() else {
                    return Err(LowerError::bug(span, "acc_write of a non-accumulator"));
                };
                let vals = v.leaves(span)?;
                b.set_span(span);
                Ok(SV::Acc(b.upd(acc, vec![i], vals)))
            }
            I::Flatmap => {
                let xs = args.pop().unwrap();
                let f = args.pop().unwrap();
                self.flatmap(b, f, xs, inst, span)
            }
            I::Hole => {
                // Only `__hole` called by name comes here: the checker's
                // holes are lowered where they occur, with their message.
                b.set_span(span);
                b.assert(Operand::bool(false), "hole reached");
                self.blank(b, &Env::default(), &ty(0), &[], span)
            }
            _ => Err(LowerError::bug(
                span,
                format!("scalar intrinsic {name} lowered as an array intrinsic"),
            )),
        }
    }

    /// `scatter_stream dest f bs` (`op` absent) and `hist_stream dest op
    /// ne f bs`: a `withacc` over the leaves of `dest` whose function maps
    /// over `bs`, threading the accumulator through `f` (a core map takes
    /// the accumulator as an input and returns it updated).
    #[allow(clippy::too_many_arguments)]
    fn acc_stream(
        &mut self,
        b: &mut Builder,
        dest: SV<'p>,
        op: Option<AccOp>,
        f: SV<'p>,
        bs: SV<'p>,
        a: &Type,
        elem: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let arrs = dest.arrays(span)?;
        let Some(&first) = arrs.first() else {
            return Err(LowerError::unsupported(
                span,
                "an accumulator of an array of empty tuples",
            ));
        };
        b.set_span(span);
        let k = size(b, first, 0);
        same_width(b, k, &arrs[1..], span)?;
        let xs = bs.arrays(span)?;
        let w = width(b, &xs, span)?;
        let acc_ty = Type::Acc(Box::new(Type::array(a.clone(), 1)));
        let input = parad_core::AccInput {
            ispace: vec![k],
            arrs,
            op,
        };
        let mut failed = None;
        let names = b.withacc(vec![input], |b, accs| {
            let acc = accs[0];
            let lam = self.lambda(
                b,
                &[acc_ty.clone(), elem.clone()],
                &acc_ty,
                span,
                |s, b, mut ps| {
                    let x = ps.pop().unwrap();
                    let acc = ps.pop().unwrap();
                    s.apply(b, f, vec![acc, x], span)
                },
            );
            match lam {
                Ok(lam) => {
                    b.set_span(span);
                    let mut ins = vec![acc];
                    ins.extend(xs);
                    let r = b.emit1_as("accs", Exp::Soac(Soac::Map(Map { w, lam, arrs: ins })));
                    vec![Operand::Var(r)]
                }
                Err(e) => {
                    failed = Some(e);
                    vec![Operand::Var(acc)]
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        from_names(a, 1, &names, span)
    }

    /// `map f xs` with elements of type `a` and results of type `r`.
    fn map(
        &mut self,
        b: &mut Builder,
        f: SV<'p>,
        xs: SV<'p>,
        a: &Type,
        r: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let arrs = xs.arrays(span)?;
        let w = width(b, &arrs, span)?;
        let lam = self.lambda(b, std::slice::from_ref(a), r, span, |s, b, mut ps| {
            let x = ps.pop().unwrap();
            s.apply(b, f, vec![x], span)
        })?;
        // A map that only rearranges its rows (as `zip3` does) is free.
        if lam.body.stms.is_empty() {
            let direct: Option<Vec<VName>> = lam
                .body
                .result
                .iter()
                .map(|o| {
                    let v = o.var()?;
                    let k = lam.params.iter().position(|p| p.name == v)?;
                    Some(arrs[k])
                })
                .collect();
            if let Some(names) = direct {
                return from_names(r, 1, &names, span);
            }
        }
        b.set_span(span);
        let names = b.emit_as("map", Exp::Soac(Soac::Map(Map { w, lam, arrs })));
        from_names(r, 1, &names, span)
    }

    /// An associative operator on values of type `a` with neutral `ne`.
    fn operator(
        &mut self,
        b: &mut Builder,
        op: SV<'p>,
        ne: SV<'p>,
        a: &Type,
        span: Span,
    ) -> R<AccOp> {
        let lam = self.lambda(b, &[a.clone(), a.clone()], a, span, |s, b, xs| {
            s.apply(b, op, xs, span)
        })?;
        Ok(AccOp {
            lam,
            neutral: ne.leaves(span)?,
        })
    }

    /// A core lambda taking the leaves of values of types `params` and
    /// returning the leaves of `f`'s result, of type `ret`.
    pub fn lambda(
        &mut self,
        b: &mut Builder,
        params: &[Type],
        ret: &Type,
        span: Span,
        f: impl FnOnce(&mut Self, &mut Builder, Vec<SV<'p>>) -> R<SV<'p>>,
    ) -> R<Lambda> {
        let mut ps = vec![];
        let mut vals = vec![];
        for t in params {
            let tys = types_of(t, 0, span)?;
            let names: Vec<_> = tys
                .into_iter()
                .map(|t| {
                    let p = b.param("x", t);
                    let n = p.name;
                    ps.push(p);
                    n
                })
                .collect();
            vals.push(from_names(t, 0, &names, span)?);
        }
        let (stms, res) = b.nested(|b| -> R<Vec<Operand>> {
            let v = f(self, b, vals)?;
            v.leaves(span)
        });
        let ret_tys = result_types_of(ret, span)?;
        Ok(Lambda {
            params: ps,
            ret: ret_tys,
            body: parad_core::Body::new(stms, res?),
        })
    }
}

/// `x && y`, without an operation when either is `true`.
fn and_op(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    if x == Operand::bool(true) {
        y
    } else if y == Operand::bool(true) {
        x
    } else {
        Operand::Var(b.binop(BinOp::And, x, y))
    }
}

/// The common outer size of `arrs`.
fn width(b: &mut Builder, arrs: &[VName], span: Span) -> R<Operand> {
    let first = *arrs
        .first()
        .ok_or_else(|| LowerError::unsupported(span, "a SOAC over an array of empty tuples"))?;
    let w = size(b, first, 0);
    same_width(b, w, &arrs[1..], span)?;
    Ok(w)
}

/// Checks at run time that every array of `arrs` has outer size `w`.
fn same_width(b: &mut Builder, w: Operand, arrs: &[VName], span: Span) -> R<()> {
    b.set_span(span);
    for &a in arrs {
        let n = size(b, a, 0);
        if n != w {
            let ok = b.cmp(CmpOp::Eq, w, n);
            b.assert(ok, "size mismatch: arrays of different lengths");
        }
    }
    Ok(())
}

/// `a == b` for arrays: same shape and equal elements.
fn array_equal(b: &mut Builder, x: VName, y: VName) -> Operand {
    let r = b.type_of(x).rank();
    let mut same = Operand::bool(true);
    let mut total = Operand::i64(1);
    for d in 0..r {
        let nx = size(b, x, d);
        let ny = size(b, y, d);
        let e = b.cmp(CmpOp::Eq, nx, ny);
        same = Operand::Var(b.binop(BinOp::And, same, e));
        total = Operand::Var(b.mul(total, nx));
    }
    let res = b.if_(
        same,
        |b| {
            let fx = b.reshape(x, vec![total]);
            let fy = b.reshape(y, vec![total]);
            let eqs = b.map(&[fx, fy], |b, p| vec![b.cmp(CmpOp::Eq, p[0], p[1]).into()]);
            let all = b.reduce(true, &eqs, vec![Operand::bool(true)], |b, xs, ys| {
                vec![b.binop(BinOp::And, xs[0], ys[0]).into()]
            });
            vec![all[0].into()]
        },
        |_| vec![Operand::bool(false)],
    );
    Operand::Var(res[0])
}

/// A scalar intrinsic at prim type `t`.
fn scalar(
    b: &mut Builder,
    intrinsic: I,
    t: PrimType,
    inst: &[Type],
    a: &[Operand],
    span: Span,
) -> R<VName> {
    let signed = matches!(t, PrimType::Int(it) if it.signed());
    let name = intrinsic.name();
    Ok(match intrinsic {
        I::Lt | I::Le | I::Gt | I::Ge => b.cmp(CmpOp::from_name(name).unwrap(), a[0], a[1]),
        I::Shr => b.binop(if signed { BinOp::AShr } else { BinOp::LShr }, a[0], a[1]),
        I::Ushr => b.binop(BinOp::LShr, a[0], a[1]),
        I::Neg => b.unop(UnOp::Neg, a[0]),
        I::Sgn => b.unop(UnOp::Signum, a[0]),
        I::Not if t == PrimType::Bool => b.unop(UnOp::Not, a[0]),
        I::Not => b.unop(UnOp::Complement, a[0]),
        I::Recip => b.binop(BinOp::Div, Operand::Const(num_scalar(t, 1)), a[0]),
        I::FromFraction => {
            let n = conv(b, a[0], t);
            let d = conv(b, a[1], t);
            b.binop(BinOp::Div, n, d)
        }
        I::Convert => {
            let to = prim_type(&inst[1], span)?;
            b.emit1_as("conv", Exp::Basic(BasicOp::Conv(ConvOp::Cast, t, to, a[0])))
        }
        I::ToBits => b.bitcast(bits_type(t, span)?, a[0]),
        I::FromBits => b.bitcast(t, a[0]),
        I::GetBit => {
            let (x, it) = as_bits(b, a[1], t, span)?;
            let bit = conv(b, a[0], it);
            let s = b.binop(BinOp::LShr, x, bit);
            let one = Operand::Const(num_scalar(it, 1));
            let r = b.binop(BinOp::And, s, one);
            return Ok(conv(b, r.into(), PrimType::Int(IntType::I32))
                .var()
                .unwrap_or(r));
        }
        I::SetBit => {
            let (x, it) = as_bits(b, a[1], t, span)?;
            let bit = conv(b, a[0], it);
            let one = Operand::Const(num_scalar(it, 1));
            let mask = b.binop(BinOp::Shl, one, bit);
            let nmask = b.unop(UnOp::Complement, mask);
            let cleared = b.binop(BinOp::And, x, nmask);
            let v = conv(b, a[2], it);
            let v1 = b.binop(BinOp::And, v, one);
            let vs = b.binop(BinOp::Shl, v1, bit);
            let r = b.binop(BinOp::Or, cleared, vs);
            if it == t {
                r
            } else {
                b.bitcast(t, r)
            }
        }
        _ => {
            if let Some(op) = UnOp::from_name(name) {
                b.unop(op, a[0])
            } else if let Some(op) = BinOp::from_name(name) {
                b.binop(op, a[0], a[1])
            } else if let Some(op) = TernOp::from_name(name) {
                b.ternop(op, a[0], a[1], a[2])
            } else {
                return Err(LowerError::bug(
                    span,
                    format!("unknown scalar intrinsic {name}"),
                ));
            }
        }
    })
}

/// The unsigned integer type of the same width as float type `t`.
fn bits_type(t: PrimType, span: Span) -> R<PrimType> {
    Ok(PrimType::Int(match t {
        PrimType::Float(FloatType::F16) => IntType::U16,
        PrimType::Float(FloatType::F32) => IntType::U32,
        PrimType::Float(FloatType::F64) => IntType::U64,
        _ => return Err(LowerError::bug(span, format!("bits of {t:?}"))),
    }))
}

/// `x` as an integer for bit manipulation (floats by their bits).
fn as_bits(b: &mut Builder, x: Operand, t: PrimType, span: Span) -> R<(Operand, PrimType)> {
    match t {
        PrimType::Int(_) => Ok((x, t)),
        PrimType::Float(_) => {
            let it = bits_type(t, span)?;
            Ok((Operand::Var(b.bitcast(it, x)), it))
        }
        PrimType::Bool => Err(LowerError::bug(span, "bits of a bool")),
    }
}

impl<'p> Lowerer<'p> {
    /// `flatmap f xs` with `f: a -> ([k]b, c)` (`inst` = `[a, b, c]`):
    /// the shapes, flags, offsets, data and values of the irregular result.
    ///
    /// Core IR has only regular arrays, so the data is built with maps,
    /// scans and a gather (every step differentiable in both modes):
    ///
    /// 1. a map applies `f` and keeps each segment's length and the value;
    /// 2. offsets are an exclusive scan of the lengths, `m` their sum and
    ///    `p` the largest length;
    /// 3. a second map applies `f` again and pads each segment to `p` rows
    ///    with zeros (concatenation), giving a regular `[n][p]b`;
    /// 4. the segment of each data index comes from scattering segment
    ///    numbers to the segments' starts and a max-scan (the flags are the
    ///    same scatter of `true`), and the data is a gather from the padded
    ///    array at (segment, index − offset).
    ///
    /// `f` is thus evaluated twice per element, and the padding costs
    /// `n * p` rows of memory.
    fn flatmap(
        &mut self,
        b: &mut Builder,
        f: SV<'p>,
        xs: SV<'p>,
        inst: &[Type],
        span: Span,
    ) -> R<SV<'p>> {
        let (ta, tb, tc) = (&inst[0], &inst[1], &inst[2]);
        let arrs = xs.arrays(span)?;
        let w = width(b, &arrs, span)?;
        let i64t = Type::i64();
        let segment = |r: &SV<'p>| -> R<(Vec<VName>, Operand)> {
            let data = r.project("0", span)?.arrays(span)?;
            let Some(&first) = data.first() else {
                return Err(LowerError::unsupported(
                    span,
                    "flatmap whose segments are arrays of empty tuples",
                ));
            };
            Ok((data, Operand::Var(first)))
        };

        // 1. Lengths and values.
        let f1 = f.clone();
        let lam = self.lambda(
            b,
            std::slice::from_ref(ta),
            &Type::Tuple(vec![i64t.clone(), tc.clone()]),
            span,
            |s, b, mut ps| {
                let r = s.apply(b, f1, vec![ps.pop().unwrap()], span)?;
                let (_, first) = segment(&r)?;
                let k = size(b, first.var().unwrap_or_else(|| unreachable!()), 0);
                Ok(SV::Tuple(vec![SV::Prim(k), r.project("1", span)?]))
            },
        )?;
        b.set_span(span);
        let names = b.emit_as(
            "fm",
            Exp::Soac(Soac::Map(Map {
                w,
                lam,
                arrs: arrs.clone(),
            })),
        );
        let shapes = names[0];
        let vals = from_names(tc, 1, &names[1..], span)?;

        // 2. Offsets, total and largest length.
        let zero = Operand::i64(0);
        let m = b.reduce_op(BinOp::Add, &[shapes], vec![zero])[0];
        let p = b.reduce_op(BinOp::Max, &[shapes], vec![zero])[0];
        let incl = b.scan(&[shapes], vec![zero], |b, x, y| {
            vec![b.add(x[0], y[0]).into()]
        })[0];
        let offsets = b.map(&[incl, shapes], |b, q| vec![b.sub(q[0], q[1]).into()])[0];

        // 3. Segments padded to `p` rows.
        let rows_b = Type::array(tb.clone(), 1);
        let lam = self.lambda(
            b,
            std::slice::from_ref(ta),
            &rows_b,
            span,
            |s, b, mut ps| {
                let r = s.apply(b, f, vec![ps.pop().unwrap()], span)?;
                let (data, first) = segment(&r)?;
                let k = size(b, first.var().unwrap_or_else(|| unreachable!()), 0);
                let pad = b.sub(p, k);
                let mut out = vec![];
                for leaf in data {
                    let t = b.type_of(leaf);
                    let elem = t.elem().ok_or_else(|| {
                        LowerError::bug(span, "flatmap segment leaf is not an array")
                    })?;
                    let mut z = Operand::Const(crate::value::num_scalar(elem, 0));
                    for d in (1..t.rank()).rev() {
                        let n = size(b, leaf, d);
                        z = Operand::Var(b.replicate(n, z));
                    }
                    let zs = b.replicate(pad, z);
                    out.push(b.concat(vec![leaf, zs]));
                }
                from_names(&rows_b, 0, &out, span)
            },
        )?;
        b.set_span(span);
        let padded = b.emit_as("fmpad", Exp::Soac(Soac::Map(Map { w, lam, arrs })));

        // 4. Flags, segment numbers and the gather.
        let starts = b.map(&[shapes, offsets], |b, q| {
            let nonempty = b.cmp(CmpOp::Gt, q[0], Operand::i64(0));
            let c = b.cast(PrimType::Int(IntType::I64), nonempty);
            let o1 = b.add(q[1], Operand::i64(1));
            let t = b.mul(c, o1);
            vec![b.sub(t, Operand::i64(1)).into()]
        })[0];
        let trues = b.replicate(w, Operand::bool(true));
        let falses = b.replicate(m, Operand::bool(false));
        let flags = b.scatter(falses, starts, trues);
        let ids = b.iota(w);
        let zeros = b.replicate(m, zero);
        let seg_starts = b.scatter(zeros, starts, ids);
        let segs = b.scan(&[seg_starts], vec![zero], |b, x, y| {
            vec![b.binop(BinOp::Max, x[0], y[0]).into()]
        })[0];
        let js = b.iota(m);
        let data = b.map(&[js, segs], |b, q| {
            let o = b.index(offsets, &[Operand::Var(q[1])]);
            let at = b.sub(q[0], o);
            padded
                .iter()
                .map(|&a| Operand::Var(b.index(a, &[Operand::Var(q[1]), Operand::Var(at)])))
                .collect()
        });
        let data = from_names(tb, 1, &data, span)?;
        Ok(SV::Tuple(vec![
            SV::Arr(shapes),
            SV::Arr(flags),
            SV::Arr(offsets),
            data,
            vals,
        ]))
    }
}

/// `xs[offset + Σ iₖ·sₖ]` for every index `(i₁, …)` below the sizes:
/// `dims` are (size, stride) pairs, outermost first; `base` is the part
/// of the flat index fixed by the enclosing levels.
fn flat_view(
    b: &mut Builder,
    xs: VName,
    offset: Operand,
    dims: &[Operand],
    base: Operand,
) -> VName {
    let (n, s) = (dims[0], dims[1]);
    let is = b.iota(n);
    b.map(&[is], |b, i| {
        let step = b.mul(i[0], s);
        let here: Operand = b.add(base, step).into();
        if dims.len() == 2 {
            let at = b.add(offset, here);
            vec![b.index(xs, &[at.into()]).into()]
        } else {
            vec![flat_view(b, xs, offset, &dims[2..], here).into()]
        }
    })[0]
}

/// `xs` with `vs[i₁, …]` written at `offset + Σ iₖ·sₖ`; every written
/// position must be in bounds (checked once, from the extreme indices).
fn flat_write(
    b: &mut Builder,
    xs: VName,
    offset: Operand,
    strides: &[Operand],
    vs: VName,
) -> VName {
    let d = strides.len();
    let n = b.width(xs);
    let mut lo: Operand = offset;
    let mut hi: Operand = offset;
    let mut count: Operand = Operand::i64(1);
    for (k, &s) in strides.iter().enumerate() {
        let len = b.dim(vs, k);
        count = b.mul(count, len).into();
        let last = b.sub(len, Operand::i64(1));
        let reach = b.mul(last, s);
        let neg = b.binop(parad_core::BinOp::Min, reach, Operand::i64(0));
        let pos = b.binop(parad_core::BinOp::Max, reach, Operand::i64(0));
        lo = b.add(lo, neg).into();
        hi = b.add(hi, pos).into();
    }
    let empty = b.cmp(parad_core::CmpOp::Eq, count, Operand::i64(0));
    let lo_ok = b.cmp(parad_core::CmpOp::Le, Operand::i64(0), lo);
    let hi_ok = b.cmp(parad_core::CmpOp::Lt, hi, n);
    let inside = b.binop(parad_core::BinOp::And, lo_ok, hi_ok);
    let ok = b.binop(parad_core::BinOp::Or, empty, inside);
    b.assert_with(
        ok,
        "Flat update out of bounds: positions {} to {} of an array of {} elements",
        vec![lo, hi, n],
    );
    // The flat positions of every element of `vs`, and its elements, in order.
    let lens: Vec<Operand> = (0..d).map(|k| b.dim(vs, k)).collect();
    let mut idx = flat_positions(b, &lens, offset, strides);
    let mut vals = vs;
    for _ in 1..d {
        idx = b.emit1(Exp::Basic(BasicOp::Flatten { arr: idx }));
        vals = b.emit1(Exp::Basic(BasicOp::Flatten { arr: vals }));
    }
    b.scatter(xs, idx, vals)
}

fn flat_positions(b: &mut Builder, lens: &[Operand], base: Operand, strides: &[Operand]) -> VName {
    let is = b.iota(lens[0]);
    b.map(&[is], |b, i| {
        let step = b.mul(i[0], strides[0]);
        let here: Operand = b.add(base, step).into();
        if lens.len() == 1 {
            vec![here]
        } else {
            vec![flat_positions(b, &lens[1..], here, &strides[1..]).into()]
        }
    })[0]
}
