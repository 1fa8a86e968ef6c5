//! Sum types: constructors, `match`, and the blanks that fill the
//! payloads of the constructors a value does not have.
//!
//! Representation: a value of a sum type with constructors `c0 … ck`
//! (sorted by name) is its tag (`i8`, or `i32` past 127 constructors:
//! the index of its constructor) followed by the payloads of *every*
//! constructor, each flattened like a tuple ([`SV::Sum`]). Payload slots
//! are not shared between constructors, even of equal types. The payloads
//! of the constructors a value does not have are blanks: zeros, `false`,
//! and arrays of zeros whose dimensions are those the type knows in the
//! current scope, or 0 where it does not (function payloads, which have
//! no leaves, are [`SV::Absent`]). An array of sums is a tag array and
//! arrays of payloads, like an array of tuples.
//!
//! `match` becomes a chain of `if`s on the tag and on literal
//! comparisons; a test known at compile time (a constructor visible to
//! static evaluation, a literal compared with a constant) picks or skips
//! its case without a branch. The type checker rejects matches that are
//! not exhaustive, so the last case needs no test; a match that no case
//! matches statically fails at run time with the location of the `match`.

use crate::error::{LowerError, R};
use crate::exp::literal;
use crate::value::{from_names, num_scalar, tag_scalar, tag_type, types_of, Env, SV};
use crate::Lowerer;
use parad_base::Span;
use parad_core::If;
use parad_core::{BinOp, Body, Builder, CmpOp, Exp, Operand};
use parad_types::tast::{TExp, TPat, Type};
use parad_values::Scalar;

impl<'p> Lowerer<'p> {
    /// `#name args` of the (resolved) sum type `ty`.
    pub fn constr(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        name: &str,
        args: &'p [TExp],
        ty: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let Type::Sum(cs) = ty else {
            return Err(LowerError::bug(span, format!("constructor of type {ty}")));
        };
        let k = constr_index(cs, name, span)?;
        let mut vals = Some(
            args.iter()
                .map(|a| self.exp(b, env, a))
                .collect::<R<Vec<_>>>()?,
        );
        b.set_span(span);
        let mut ps = vec![];
        for (i, (_, ts)) in cs.iter().enumerate() {
            if i == k {
                ps.push(vals.take().unwrap_or_default());
            } else {
                ps.push(
                    ts.iter()
                        .map(|t| self.blank(b, env, t, &[], span))
                        .collect::<R<_>>()?,
                );
            }
        }
        let tag = SV::Prim(Operand::Const(tag_scalar(cs.len(), k)));
        Ok(SV::Sum(Box::new(tag), ps))
    }

    /// A blank value of (resolved) type `t` inside the array dimensions
    /// `outer`: zeros, and arrays of the sizes the type gives where they
    /// are known here (0 elsewhere).
    pub fn blank(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        t: &Type,
        outer: &[Operand],
        span: Span,
    ) -> R<SV<'p>> {
        Ok(match t {
            Type::Prim(p) => {
                let mut z = Operand::Const(num_scalar(*p, 0));
                if outer.is_empty() {
                    return Ok(SV::Prim(z));
                }
                for &n in outer.iter().rev() {
                    z = Operand::Var(b.replicate(n, z));
                }
                match z {
                    Operand::Var(v) => SV::Arr(v),
                    Operand::Const(_) => unreachable!("outer dimensions were replicated"),
                }
            }
            Type::Array(e, ds) => {
                let mut o = outer.to_vec();
                for d in ds {
                    o.push(self.dim_value(b, env, d).unwrap_or(Operand::i64(0)));
                }
                self.blank(b, env, e, &o, span)?
            }
            Type::Tuple(ts) => SV::Tuple(
                ts.iter()
                    .map(|t| self.blank(b, env, t, outer, span))
                    .collect::<R<_>>()?,
            ),
            Type::Record(fs) => SV::Record(
                fs.iter()
                    .map(|(n, t)| Ok((n.clone(), self.blank(b, env, t, outer, span)?)))
                    .collect::<R<_>>()?,
            ),
            Type::Sum(cs) => {
                let tag = self.blank(b, env, &Type::Prim(tag_type(cs.len())), outer, span)?;
                let ps = cs
                    .iter()
                    .map(|(_, ts)| {
                        ts.iter()
                            .map(|t| self.blank(b, env, t, outer, span))
                            .collect::<R<Vec<_>>>()
                    })
                    .collect::<R<_>>()?;
                SV::Sum(Box::new(tag), ps)
            }
            Type::Arrow(..) if outer.is_empty() => SV::Absent,
            Type::Arrow(..) => {
                return Err(LowerError::unsupported(
                    span,
                    "functions cannot be stored in arrays",
                ))
            }
            Type::Acc(_) => {
                return Err(LowerError::unsupported(
                    span,
                    "an accumulator as the payload of an absent constructor",
                ))
            }
            Type::Param(_) | Type::Var(_) => {
                return Err(LowerError::bug(
                    span,
                    format!("blank of unresolved type {t}"),
                ))
            }
        })
    }

    /// `match scrut case p1 -> e1 …` with result type `ty` (resolved).
    #[allow(clippy::too_many_arguments)]
    pub fn match_(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        scrut: &'p TExp,
        cases: &'p [(TPat, TExp)],
        ty: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let v = self.exp(b, env, scrut)?;
        self.cases(b, env, &v, cases, ty, span)
    }

    /// The first of `cases` that matches `v`.
    #[allow(clippy::too_many_arguments)]
    fn cases(
        &mut self,
        b: &mut Builder,
        env: &Env<'p>,
        v: &SV<'p>,
        cases: &'p [(TPat, TExp)],
        ty: &Type,
        span: Span,
    ) -> R<SV<'p>> {
        let Some(((p, e), rest)) = cases.split_first() else {
            b.set_span(span);
            b.assert(
                Operand::bool(false),
                "Unmatched case: no case of this match matches the value",
            );
            return self.blank(b, env, ty, &[], span);
        };
        b.set_span(p.span());
        // The type checker proved the match exhaustive: the last case
        // matches whatever the others did not.
        let cond = if rest.is_empty() {
            Operand::bool(true)
        } else {
            self.pat_test(b, v, p)?
        };
        match cond {
            Operand::Const(Scalar::Bool(true)) => {
                let mut env2 = env.clone();
                self.bind_pat(b, &mut env2, p, v.clone())?;
                self.exp(b, &env2, e)
            }
            Operand::Const(Scalar::Bool(false)) => self.cases(b, env, v, rest, ty, span),
            cond => {
                let ret = types_of(ty, 0, span)?;
                let (stms, res) = b.nested(|b| -> R<Vec<Operand>> {
                    let mut env2 = env.clone();
                    self.bind_pat(b, &mut env2, p, v.clone())?;
                    self.exp(b, &env2, e)?.leaves(e.span)
                });
                let then_br = Body::new(stms, res?);
                let (stms, res) = b.nested(|b| -> R<Vec<Operand>> {
                    self.cases(b, env, v, rest, ty, span)?.leaves(span)
                });
                let else_br = Body::new(stms, res?);
                b.set_span(span);
                let pat: Vec<_> = ret.iter().map(|t| b.param("case", t.clone())).collect();
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
        }
    }

    /// Whether `v` matches pattern `p`: a boolean operand, constant where
    /// static evaluation knows. Every test is total (tags and scalar
    /// comparisons), so all of them are evaluated.
    fn pat_test(&mut self, b: &mut Builder, v: &SV<'p>, p: &'p TPat) -> R<Operand> {
        Ok(match p {
            TPat::Var(..) | TPat::Wildcard(..) => Operand::bool(true),
            TPat::Tuple(ps, span) => {
                let mut c = Operand::bool(true);
                for (i, p) in ps.iter().enumerate() {
                    let x = v.project(&i.to_string(), *span)?;
                    let t = self.pat_test(b, &x, p)?;
                    c = and(b, c, t);
                }
                c
            }
            TPat::Record(fs, span) => {
                let mut c = Operand::bool(true);
                for (n, p) in fs {
                    let x = v.project(n, *span)?;
                    let t = self.pat_test(b, &x, p)?;
                    c = and(b, c, t);
                }
                c
            }
            TPat::Constr(name, ps, t, span) => {
                let (k, n, tag, payload) = sum_parts(v, name, t, *span)?;
                let mut c = eq(b, tag, Operand::Const(tag_scalar(n, k)));
                for (p, x) in ps.iter().zip(payload) {
                    let t = self.pat_test(b, x, p)?;
                    c = and(b, c, t);
                }
                c
            }
            TPat::Lit(l, t, span) => {
                let SV::Prim(o) = v else {
                    return Err(LowerError::bug(*span, "literal pattern on a non-scalar"));
                };
                let k = literal(*l, t, *span)?;
                eq(b, *o, Operand::Const(k))
            }
        })
    }

    /// Binds the variables of the payload patterns of a constructor
    /// pattern (whose test passed, or which is the only constructor).
    pub fn bind_constr(
        &mut self,
        b: &mut Builder,
        env: &mut Env<'p>,
        (name, ps, t, span): (&str, &'p [TPat], &Type, Span),
        v: SV<'p>,
    ) -> R<()> {
        let (_, _, _, payload) = sum_parts(&v, name, t, span)?;
        for (p, x) in ps.iter().zip(payload) {
            self.bind_pat(b, env, p, x.clone())?;
        }
        Ok(())
    }

    /// `x == y` for values of a sum type: equal tags, and equal payloads
    /// of the constructor they name. `None` if the values are not scalar
    /// sums (arrays of sums are compared leaf by leaf).
    pub fn sum_equal(
        &mut self,
        b: &mut Builder,
        x: &SV<'p>,
        y: &SV<'p>,
        span: Span,
        equal: &mut dyn FnMut(&mut Self, &mut Builder, &SV<'p>, &SV<'p>) -> R<Operand>,
    ) -> R<Option<Operand>> {
        let (SV::Sum(tx, px), SV::Sum(ty, py)) = (x, y) else {
            return Ok(None);
        };
        let (SV::Prim(tx), SV::Prim(ty)) = (&**tx, &**ty) else {
            return Ok(None);
        };
        if px.len() != py.len() {
            return Err(LowerError::bug(span, "equality of different sum types"));
        }
        b.set_span(span);
        let n = px.len();
        let mut c = eq(b, *tx, *ty);
        for (k, (xs, ys)) in px.iter().zip(py).enumerate() {
            let mut same = Operand::bool(true);
            for (a, c2) in xs.iter().zip(ys) {
                let e = equal(self, b, a, c2)?;
                same = and(b, same, e);
            }
            if same == Operand::bool(true) {
                continue;
            }
            // Only the payload of the constructor both have counts.
            let other = ne(b, *tx, Operand::Const(tag_scalar(n, k)));
            let ok = or(b, other, same);
            c = and(b, c, ok);
        }
        Ok(Some(c))
    }
}

/// The constructor number of `name`, the number of constructors, the
/// tag and the payload of `name` in the sum value `v` of type `t`.
fn sum_parts<'a, 'p>(
    v: &'a SV<'p>,
    name: &str,
    t: &Type,
    span: Span,
) -> R<(usize, usize, Operand, &'a [SV<'p>])> {
    let Type::Sum(cs) = t else {
        return Err(LowerError::bug(
            span,
            format!("constructor pattern of type {t}"),
        ));
    };
    let k = constr_index(cs, name, span)?;
    let SV::Sum(tag, ps) = v else {
        return Err(LowerError::bug(
            span,
            "constructor pattern on a non-sum value",
        ));
    };
    let SV::Prim(tag) = **tag else {
        return Err(LowerError::bug(span, "constructor pattern on an array"));
    };
    let payload = ps
        .get(k)
        .ok_or_else(|| LowerError::bug(span, "sum value of another type"))?;
    Ok((k, cs.len(), tag, payload))
}

fn constr_index(cs: &[(String, Vec<Type>)], name: &str, span: Span) -> R<usize> {
    cs.iter()
        .position(|(n, _)| n == name)
        .ok_or_else(|| LowerError::bug(span, format!("no constructor #{name}")))
}

/// `x == y`, folded when both are constants.
fn eq(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    match (x, y) {
        (Operand::Const(a), Operand::Const(c)) => Operand::bool(a == c),
        _ => Operand::Var(b.cmp(CmpOp::Eq, x, y)),
    }
}

fn ne(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    match (x, y) {
        (Operand::Const(a), Operand::Const(c)) => Operand::bool(a != c),
        _ => Operand::Var(b.cmp(CmpOp::Ne, x, y)),
    }
}

/// `x && y`, folded when either is a constant.
fn and(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    match (x, y) {
        (Operand::Const(Scalar::Bool(true)), o) | (o, Operand::Const(Scalar::Bool(true))) => o,
        (Operand::Const(Scalar::Bool(false)), _) | (_, Operand::Const(Scalar::Bool(false))) => {
            Operand::bool(false)
        }
        _ => Operand::Var(b.binop(BinOp::And, x, y)),
    }
}

/// `x || y`, folded when either is a constant.
fn or(b: &mut Builder, x: Operand, y: Operand) -> Operand {
    match (x, y) {
        (Operand::Const(Scalar::Bool(false)), o) | (o, Operand::Const(Scalar::Bool(false))) => o,
        (Operand::Const(Scalar::Bool(true)), _) | (_, Operand::Const(Scalar::Bool(true))) => {
            Operand::bool(true)
        }
        _ => Operand::Var(b.binop(BinOp::Or, x, y)),
    }
}
