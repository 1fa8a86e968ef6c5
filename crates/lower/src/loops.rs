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
use parad_core::{Body, Builder, DimIndex, Exp, LoopForm, Operand, Param, Type as CType};
use parad_types::tast::{TExp, TLoopForm, TPat, Type};

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
                            Exp::Index {
                                arr,
                                slice: vec![DimIndex::Fix(Operand::Var(iv))],
                            },
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
        b.let_pat(pat_params, Exp::Loop { params, form, body });
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

fn int_type(b: &Builder, o: Operand, span: Span) -> R<IntType> {
    match b.type_of(o) {
        CType::Prim(PrimType::Int(it)) => Ok(it),
        t => Err(LowerError::bug(span, format!("loop bound of type {t}"))),
    }
}
