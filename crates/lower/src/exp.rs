//! Expressions: each typed expression becomes core statements in the
//! current builder and a static value.

use crate::error::{LowerError, R};
use crate::value::{float_scalar, from_names, int_scalar, types_of, Callee, Closure, Env, SV};
use crate::Lowerer;
use parad_base::{IntType, PrimType, Span};
use parad_core::If;
use parad_core::{BasicOp, Builder, Exp, Operand, Type as CType};
use parad_types::intrinsics::Intrinsic;
use parad_types::tast::{hole_message, Literal, TExp, TExpKind, Type};
use parad_values::Scalar;
use std::rc::Rc;

impl<'p> Lowerer<'p> {
    pub fn exp(&mut self, b: &mut Builder, env: &Env<'p>, e: &'p TExp) -> R<SV<'p>> {
        let span = e.span;
        b.set_span(span);
        match &e.kind {
            TExpKind::Lit(l) => Ok(SV::Prim(Operand::Const(literal(
                *l,
                &env.resolve(&e.ty),
                span,
            )?))),
            TExpKind::Var(v, inst, sinst) => {
                let sv = env.vars.get(v).cloned().ok_or_else(|| {
                    // Inside inlined prelude code, point at the user's call.
                    let at = match b.pinned_span() {
                        Some(p) if self.prelude_files.contains(&span.file) => p,
                        _ => span,
                    };
                    self.unbound(*v, at)
                })?;
                match sv {
                    SV::Fun(c) if !inst.is_empty() || !sinst.is_empty() => {
                        let mut c = (*c).clone();
                        if let Callee::Local {
                            inst: i,
                            sizes,
                            fun,
                            ..
                        } = &mut c.callee
                        {
                            *i = inst.iter().map(|t| env.resolve(t)).collect();
                            *sizes = self.size_vals(b, env, &fun.size_sources, sinst);
                        }
                        Ok(SV::Fun(Rc::new(c)))
                    }
                    sv => Ok(sv),
                }
            }
            TExpKind::Global(f, inst, sinst) => {
                let inst: Vec<Type> = inst.iter().map(|t| env.resolve(t)).collect();
                let fun = self.prog.fun(*f);
                let sizes = self.size_vals(b, env, &fun.size_sources, sinst);
                let callee = Callee::Global(*f, inst, sizes);
                if fun.params.is_empty() {
                    // A top-level constant: evaluated where it is used.
                    self.call(b, callee, vec![], span)
                } else {
                    Ok(closure(callee))
                }
            }
            TExpKind::Intrinsic(name, inst) => {
                let i = Intrinsic::from_name(name).ok_or_else(|| {
                    LowerError::bug(
                        span,
                        format!("unknown intrinsic '{name}' (not in the table)"),
                    )
                })?;
                let inst = inst.iter().map(|t| env.resolve(t)).collect();
                Ok(closure(Callee::Intrinsic(i, inst)))
            }
            TExpKind::Tuple(es) => Ok(SV::Tuple(
                es.iter().map(|e| self.exp(b, env, e)).collect::<R<_>>()?,
            )),
            TExpKind::Record(fs) => Ok(SV::Record(
                fs.iter()
                    .map(|(n, e)| Ok((n.clone(), self.exp(b, env, e)?)))
                    .collect::<R<_>>()?,
            )),
            TExpKind::ArrayLit(es) => self.array_lit(b, env, es, &env.resolve(&e.ty), span),
            TExpKind::Range {
                start,
                second,
                end,
                kind,
            } => self.range(b, env, start, second.as_deref(), end, kind, span),
            TExpKind::Project(x, field) => self.exp(b, env, x)?.project(field, span),
            TExpKind::Index(arr, idx) => {
                let t = env.resolve(&arr.ty);
                let a = self.exp(b, env, arr)?;
                self.index(b, env, a, &t, idx, span)
            }
            TExpKind::Update(arr, idx, v) => {
                let t = env.resolve(&arr.ty);
                let a = self.exp(b, env, arr)?;
                let v = self.exp(b, env, v)?;
                self.update(b, env, a, &t, idx, v, span)
            }
            TExpKind::RecordUpdate(r, path, v) => {
                let r = self.exp(b, env, r)?;
                let v = self.exp(b, env, v)?;
                record_update(r, path, v, span)
            }
            TExpKind::Apply(f, args) => {
                if let Some(msg) = hole_message(f, args) {
                    // A typed hole: a run-time error, then a blank of its
                    // type for the code after it (never reached).
                    b.set_span(span);
                    b.assert(Operand::bool(false), msg);
                    return self.blank(b, env, &env.resolve(&e.ty), &[], span);
                }
                let fv = self.exp(b, env, f)?;
                let args = args
                    .iter()
                    .map(|a| self.exp(b, env, a))
                    .collect::<R<Vec<_>>>()?;
                b.set_span(span);
                self.apply(b, fv, args, span)
            }
            TExpKind::If(c, t, f) => self.if_(b, env, c, t, f, &env.resolve(&e.ty), span),
            TExpKind::Let {
                sizes,
                pat,
                rhs,
                body,
            } => {
                let v = self.exp(b, env, rhs)?;
                let mut env2 = env.clone();
                self.bind_pat(b, &mut env2, pat, v)?;
                self.bind_sizes(b, &mut env2, sizes, span)?;
                self.exp(b, &env2, body)
            }
            TExpKind::LetFun(f, body) => {
                let mut env2 = env.clone();
                let c = closure(Callee::Local {
                    fun: f,
                    env: env.clone(),
                    inst: vec![],
                    sizes: vec![],
                });
                env2.bind(f.var, c);
                self.exp(b, &env2, body)
            }
            TExpKind::Lambda(params, body) => Ok(closure(Callee::Lambda {
                params,
                body,
                env: env.clone(),
            })),
            TExpKind::Loop {
                pat,
                init,
                form,
                body,
                attrs,
            } => {
                let ty = env.resolve(&e.ty);
                self.loop_(b, env, pat, init, form, body, &ty, attrs, span)
            }
            TExpKind::Assert(c, x) => {
                let c = self.exp(b, env, c)?;
                let SV::Prim(c) = c else {
                    return Err(LowerError::bug(span, "assertion on a non-scalar"));
                };
                b.set_span(span);
                b.assert(c, "Assertion is false");
                self.exp(b, env, x)
            }
            TExpKind::Constr(name, args) => {
                self.constr(b, env, name, args, &env.resolve(&e.ty), span)
            }
            TExpKind::Match(x, cases) => self.match_(b, env, x, cases, &env.resolve(&e.ty), span),
            TExpKind::Coerce(x) => {
                let v = self.exp(b, env, x)?;
                let what = match &x.kind {
                    TExpKind::Var(v, ..) => format!("`{}`", self.var_name(*v)),
                    _ => "value".to_string(),
                };
                self.check_shape(b, env, &v, &env.resolve(&e.ty), &what, span)
            }
            // As Futhark does, a tuning parameter only of `i64` values.
            TExpKind::UserParam(name, x) => match self.exp(b, env, x)? {
                SV::Prim(default)
                    if env.resolve(&e.ty) == Type::Prim(PrimType::Int(IntType::I64)) =>
                {
                    let v = b.emit1_as(
                        name,
                        BasicOp::UserParam {
                            name: name.clone(),
                            default,
                        },
                    );
                    Ok(SV::Prim(v.into()))
                }
                v => Ok(v),
            },
        }
    }

    /// `if c then t else f`: both branches become bodies returning the
    /// leaves of a value of type `ty`.
    #[allow(clippy::too_many_arguments)]
    fn if_(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        c: &'p TExp,
        t: &'p TExp,
        f: &'p TExp,
        ty: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let cv = self.exp(b, env, c)?;
        let SV::Prim(cond) = cv else {
            return Err(LowerError::bug(span, "condition is not a scalar"));
        };
        // Known conditions (from `&&`/`||` on constants) need no branch.
        if let Operand::Const(Scalar::Bool(k)) = cond {
            return self.exp(b, env, if k { t } else { f });
        }
        let ret = types_of(ty, 0, span)?;
        let then_br = self.branch(b, env, t, &ret)?;
        let else_br = self.branch(b, env, f, &ret)?;
        b.set_span(span);
        let pat: Vec<_> = ret.iter().map(|t| b.param("if", t.clone())).collect();
        let names: Vec<_> = pat.iter().map(|p| p.name).collect();
        b.let_pat(
            pat,
            Exp::If(If {
                cond,
                then_br,
                else_br,
                ret,
            }),
        );
        from_names(ty, 0, &names, span)
    }

    /// A body evaluating `e` and returning its leaves.
    pub fn branch(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        e: &'p TExp,
        _ret: &[CType],
    ) -> R<parad_core::Body> {
        let (stms, res) = b.nested(|b| -> R<Vec<Operand>> {
            let v = self.exp(b, env, e)?;
            v.leaves(e.span)
        });
        Ok(parad_core::Body::new(stms, res?))
    }
}

pub fn closure(callee: Callee<'_>) -> SV<'_> {
    SV::Fun(Rc::new(Closure {
        callee,
        args: vec![],
    }))
}

/// The scalar of literal `l` at type `t`.
pub fn literal(l: Literal, t: &Type, span: Span) -> R<Scalar> {
    let Type::Prim(p) = t else {
        return Err(LowerError::bug(span, format!("literal of type {t}")));
    };
    Ok(match (l, *p) {
        (Literal::Int(v), PrimType::Int(it)) => int_scalar(it, v),
        (Literal::Int(v), PrimType::Float(ft)) => float_scalar(ft, v as f64),
        (Literal::Float(x), PrimType::Float(ft)) => float_scalar(ft, x),
        (Literal::Bool(x), PrimType::Bool) => Scalar::Bool(x),
        _ => return Err(LowerError::bug(span, format!("literal {l:?} of type {t}"))),
    })
}

/// `r with a.b.c = v`.
fn record_update<'p>(r: SV<'p>, path: &[String], v: SV<'p>, span: Span) -> R<SV<'p>> {
    let Some((first, rest)) = path.split_first() else {
        return Ok(v);
    };
    match r {
        SV::Record(mut fs) => {
            let slot = fs
                .iter_mut()
                .find(|(n, _)| n == first)
                .ok_or_else(|| LowerError::bug(span, format!("no field {first}")))?;
            let old = std::mem::replace(&mut slot.1, SV::Tuple(vec![]));
            slot.1 = record_update(old, rest, v, span)?;
            Ok(SV::Record(fs))
        }
        SV::Tuple(mut xs) => {
            let i: usize = first
                .parse()
                .map_err(|_| LowerError::bug(span, format!("no field {first}")))?;
            let old = std::mem::replace(&mut xs[i], SV::Tuple(vec![]));
            xs[i] = record_update(old, rest, v, span)?;
            Ok(SV::Tuple(xs))
        }
        _ => Err(LowerError::bug(span, "record update of a non-record")),
    }
}
