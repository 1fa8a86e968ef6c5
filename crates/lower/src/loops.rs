//! `loop` in its three forms. The loop state is flattened into core loop
//! parameters (dimensions left unknown, since arrays may change size);
//! `for x in xs` indexes `xs` by a counter, and `while c` carries the
//! condition as the first parameter, evaluated once before the loop and
//! after each iteration.

use crate::apply::size;
use crate::error::{LowerError, R};
use crate::value::{from_names, types_of, Env, SV};
use crate::Lowerer;
use parad_base::{IntType, PrimType, Span};
use parad_core::{BasicOp, If, Loop, Stm};
use parad_core::{Body, Builder, DimIndex, Exp, LoopForm, Operand, Param, Type as CType};
use parad_types::tast::{stripmine_factor, Attr, TExp, TLoopForm, TPat, Type};

impl<'p> Lowerer<'p> {
    #[allow(clippy::too_many_arguments)]
    pub fn loop_(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        pat: &'p TPat,
        init: &'p TExp,
        form: &'p TLoopForm,
        body: &'p TExp,
        ty: &Type,
        attrs: &[Attr],
        span: Span,
    ) -> R<SV<'p>> {
        let init_v = self.exp(b, env, init)?;
        let inits = init_v.leaves(span)?;
        let tys = types_of(ty, 0, span)?;
        b.set_span(span);
        let mut params: Vec<(Param, Operand)> = tys
            .iter()
            .zip(&inits)
            .map(|(t, &o)| (b.param("loop", t.clone()), o))
            .collect();
        let names: Vec<_> = params.iter().map(|(p, _)| p.name).collect();
        let state = from_names(ty, 0, &names, span)?;
        let (form, body) = match form {
            TLoopForm::For(i, bound) => {
                let SV::Prim(bound) = self.exp(b, env, bound)? else {
                    return Err(LowerError::bug(span, "loop bound is not a scalar"));
                };
                let it = int_type(b, bound, span)?;
                let iv = b.param("i", CType::Prim(PrimType::Int(it))).name;
                let mut env2 = env.clone();
                env2.bind(*i, SV::Prim(Operand::Var(iv)));
                self.bind_pat(b, &mut env2, pat, state)?;
                let body = self.loop_body(b, &env2, body, None)?;
                (LoopForm::For { i: iv, it, bound }, body)
            }
            TLoopForm::ForIn(xpat, xs) => {
                let xs = self.exp(b, env, xs)?;
                let arrs = xs.arrays(span)?;
                let first = *arrs.first().ok_or_else(|| {
                    LowerError::unsupported(span, "`for … in` over an array of empty tuples")
                })?;
                b.set_span(span);
                let n = size(b, first, 0);
                let iv = b.param("i", CType::Prim(PrimType::Int(IntType::I64))).name;
                let mut env2 = env.clone();
                self.bind_pat(b, &mut env2, pat, state)?;
                let (stms, body) = b.nested(|b| -> R<Body> {
                    let x = xs.map_leaves(&mut |o| {
                        let arr = o.var().expect("array leaves are variables");
                        let r = b.emit1_as(
                            "x",
                            Exp::Basic(BasicOp::Index {
                                arr,
                                slice: vec![DimIndex::Fix(Operand::Var(iv))],
                            }),
                        );
                        Ok(if b.type_of(r).rank() == 0 {
                            SV::Prim(Operand::Var(r))
                        } else {
                            SV::Arr(r)
                        })
                    })?;
                    let mut env3 = env2.clone();
                    self.bind_pat(b, &mut env3, xpat, x)?;
                    let v = self.exp(b, &env3, body)?;
                    Ok(Body::new(vec![], v.leaves(span)?))
                });
                let mut body = body?;
                body.stms = stms;
                (
                    LoopForm::For {
                        i: iv,
                        it: IntType::I64,
                        bound: n,
                    },
                    body,
                )
            }
            TLoopForm::While(cond) => {
                // The condition on the initial state, then the loop.
                let mut env0 = env.clone();
                self.bind_pat(b, &mut env0, pat, init_v.clone())?;
                let SV::Prim(c0) = self.exp(b, &env0, cond)? else {
                    return Err(LowerError::bug(span, "loop condition is not a scalar"));
                };
                b.set_span(span);
                let cp = b.param("cond", CType::Prim(PrimType::Bool));
                let cname = cp.name;
                params.insert(0, (cp, c0));
                let mut env2 = env.clone();
                self.bind_pat(b, &mut env2, pat, state)?;
                let body = self.loop_body(b, &env2, body, Some((pat, cond)))?;
                (LoopForm::While { cond: cname }, body)
            }
        };
        b.set_span(span);
        let pat_params: Vec<Param> = params
            .iter()
            .map(|(p, _)| b.param("loopres", p.ty.clone()))
            .collect();
        let mut res: Vec<_> = pat_params.iter().map(|p| p.name).collect();
        let is_while = matches!(form, LoopForm::While { .. });
        let exp = match (stripmine_factor(attrs), form) {
            // Beyond 63 levels every level has at most 2 iterations for
            // any i64 bound: larger factors change nothing.
            (Some(k), LoopForm::For { i, it, bound }) if k >= 2 => {
                strip_mined(b, params, (i, it, bound), body, k.min(63))
            }
            (_, form) => Exp::Loop(Loop { params, form, body }),
        };
        b.add_stm(Stm {
            pat: pat_params,
            exp,
            span: b.span(),
            attrs: crate::attrs::passed_on(attrs),
        });
        if is_while {
            res.remove(0);
        }
        from_names(ty, 0, &res, span)
    }

    /// The loop body returning the new state (preceded, for `while`, by
    /// the condition on the new state).
    fn loop_body(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        body: &'p TExp,
        cond: Option<(&'p TPat, &'p TExp)>,
    ) -> R<Body> {
        let (stms, res) = b.nested(|b| -> R<Vec<Operand>> {
            let v = self.exp(b, env, body)?;
            let mut res = v.leaves(body.span)?;
            if let Some((pat, c)) = cond {
                let mut env2 = env.clone();
                self.bind_pat(b, &mut env2, pat, v)?;
                let SV::Prim(c) = self.exp(b, &env2, c)? else {
                    return Err(LowerError::bug(c.span, "loop condition is not a scalar"));
                };
                res.insert(0, c);
            }
            Ok(res)
        });
        Ok(Body::new(stms, res?))
    }
}

/// `for i < n do body` as `k` nested loops (`#[stripmine(k)]`): with
/// `s = ⌈n^(1/k)⌉`, level `d` (counted from the innermost, 0) runs
/// `min(s, ⌈n / s^d⌉)` times (the outermost `⌈n / s^(k-1)⌉` times, which
/// covers any rounding in `s`), and the innermost runs the body when
/// `i = ((j_{k-1}·s + …)·s + j₀) < n`. Levels that are not needed run
/// once, so there are about `n` iterations in all. Same results; reverse
/// AD then checkpoints about `k·s` states instead of `n` and runs each
/// level's forward sweep again, trading memory for recomputation (seed
/// 001 §4).
fn strip_mined(
    b: &mut Builder,
    params: Vec<(Param, Operand)>,
    (iv, it, bound): (parad_core::VName, IntType, Operand),
    body: Body,
    k: u32,
) -> Exp {
    use parad_core::{BinOp, UnOp};
    let i64t = PrimType::Int(IntType::I64);
    let f64t = PrimType::Float(parad_base::FloatType::F64);
    let n: Operand = if it == IntType::I64 {
        bound
    } else {
        b.cast(i64t, bound).into()
    };
    let nf = b.cast(f64t, n);
    let root = b.binop(BinOp::Pow, nf, Operand::f64(1.0 / k as f64));
    let root = b.unop(UnOp::Ceil, root);
    let s = b.cast(i64t, root);
    let s: Operand = b.binop(BinOp::Max, s, Operand::i64(1)).into();
    // p_d = min(s^d, n) (at least 1), without overflow; bound_d from it.
    let mut bounds = vec![];
    let mut p: Operand = Operand::i64(1);
    for d in 0..k {
        let pm = b.binop(BinOp::Max, p, Operand::i64(1));
        let num = b.add(n, pm);
        let num = b.sub(num, Operand::i64(1));
        let q = b.binop(BinOp::Quot, num, pm);
        let bound_d: Operand = if d + 1 == k {
            q.into()
        } else {
            b.binop(BinOp::Min, s, q).into()
        };
        bounds.push(bound_d);
        let lim = b.binop(BinOp::Quot, n, s);
        let big = b.cmp(parad_core::CmpOp::Gt, p, lim);
        let ps = b.mul(p, s);
        let capped = b.binop(BinOp::Min, ps, n);
        p = select(b, big, n, capped);
    }
    bounds.reverse(); // outermost first
    let tys: Vec<CType> = params.iter().map(|(p, _)| p.ty.clone()).collect();
    let inits: Vec<Operand> = params.iter().map(|(_, o)| *o).collect();
    let orig: Vec<Param> = params.into_iter().map(|(p, _)| p).collect();
    build_level(
        b,
        &orig,
        &tys,
        inits,
        (iv, it, n, s),
        body,
        &bounds,
        Operand::i64(0),
    )
}

/// `if c then x else y` on i64 scalars.
fn select(b: &mut Builder, c: parad_core::VName, x: Operand, y: parad_core::VName) -> Operand {
    let then_br = b.body(|_| vec![x]);
    let else_br = b.body(|_| vec![Operand::Var(y)]);
    b.emit(Exp::If(If {
        cond: c.into(),
        then_br,
        else_br,
        ret: vec![CType::Prim(PrimType::Int(IntType::I64))],
    }))[0]
        .into()
}

/// One level of [`strip_mined`]: a loop of `bounds[0]` iterations over
/// `j`, passing `base·s + j` down (the innermost level computes the index).
#[allow(clippy::too_many_arguments)]
fn build_level(
    b: &mut Builder,
    orig: &[Param],
    tys: &[CType],
    inits: Vec<Operand>,
    (iv, it, n, s): (parad_core::VName, IntType, Operand, Operand),
    body: Body,
    bounds: &[Operand],
    base: Operand,
) -> Exp {
    let j = b
        .param("strip", CType::Prim(PrimType::Int(IntType::I64)))
        .name;
    let (params, inner_body) = if bounds.len() == 1 {
        // The innermost loop carries the original parameters.
        let params: Vec<(Param, Operand)> = orig.iter().cloned().zip(inits).collect();
        let (stms, res) = b.nested(|b| {
            let scaled = b.mul(base, s);
            let idx = b.add(scaled, j);
            let idx: Operand = if it == IntType::I64 {
                idx.into()
            } else {
                b.cast(PrimType::Int(it), idx).into()
            };
            b.let_pat(
                vec![Param::new(iv, CType::Prim(PrimType::Int(it)))],
                Exp::Basic(BasicOp::Atom(idx)),
            );
            let idx64: Operand = if it == IntType::I64 {
                idx
            } else {
                b.cast(PrimType::Int(IntType::I64), idx).into()
            };
            let inside = b.cmp(parad_core::CmpOp::Lt, idx64, n);
            let keep: Vec<Operand> = orig.iter().map(|p| Operand::Var(p.name)).collect();
            let r = b.emit(Exp::If(If {
                cond: inside.into(),
                then_br: body,
                else_br: Body::new(vec![], keep),
                ret: tys.to_vec(),
            }));
            r.into_iter().map(Operand::Var).collect::<Vec<_>>()
        });
        (params, Body::new(stms, res))
    } else {
        let fresh: Vec<Param> = tys
            .iter()
            .map(|t| b.param("strip_state", t.clone()))
            .collect();
        let params: Vec<(Param, Operand)> = fresh.iter().cloned().zip(inits).collect();
        let (stms, res) = b.nested(|b| {
            let scaled = b.mul(base, s);
            let next = b.add(scaled, j);
            let state: Vec<Operand> = fresh.iter().map(|p| Operand::Var(p.name)).collect();
            let inner = build_level(
                b,
                orig,
                tys,
                state,
                (iv, it, n, s),
                body,
                &bounds[1..],
                next.into(),
            );
            let r = b.emit(inner);
            r.into_iter().map(Operand::Var).collect::<Vec<_>>()
        });
        (params, Body::new(stms, res))
    };
    Exp::Loop(Loop {
        params,
        form: LoopForm::For {
            i: j,
            it: IntType::I64,
            bound: bounds[0],
        },
        body: inner_body,
    })
}

fn int_type(b: &Builder, o: Operand, span: Span) -> R<IntType> {
    match b.type_of(o) {
        CType::Prim(PrimType::Int(it)) => Ok(it),
        t => Err(LowerError::bug(span, format!("loop bound of type {t}"))),
    }
}
