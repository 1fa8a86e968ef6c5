//! Type inference for expressions.

use crate::env::{no_field, Checker, Global, Local, Res, SizeScheme, TypeName, UnknownSource};
use crate::finish::wrap_suffixed;
use crate::intrinsics::{array_intrinsic, module_intrinsic, Intrinsic};
use crate::modules::Module;
use crate::pat::{check_distinct, pat_names, Sizes};
use crate::tast::*;
use crate::unify::{field_type, ClassSet, UnifyError};
use parad_base::{Diagnostic, FloatType, IntType, PrimType, Span};
use parad_syntax::ast::{
    DimIndex, Exp, ExpKind, FieldExp, Ident, IntSuffix, Liftedness, Lit, LoopForm, Pat, QualName,
    RangeEnd, SectionStep, TypeParam,
};

/// How a built-in binary operator is typed and which intrinsic it becomes.
struct BuiltinOp {
    intrinsic: Intrinsic,
    class: ClassSet,
    returns_bool: bool,
}

fn builtin_op(name: &str) -> Option<BuiltinOp> {
    let (intrinsic, class, returns_bool) = match name {
        "+" => (Intrinsic::Add, ClassSet::NUM, false),
        "-" => (Intrinsic::Sub, ClassSet::NUM, false),
        "*" => (Intrinsic::Mul, ClassSet::NUM, false),
        "/" => (Intrinsic::Div, ClassSet::NUM, false),
        "%" => (Intrinsic::Mod, ClassSet::NUM, false),
        "**" => (Intrinsic::Pow, ClassSet::NUM, false),
        "//" => (Intrinsic::Quot, ClassSet::INT, false),
        "%%" => (Intrinsic::Rem, ClassSet::INT, false),
        "&" => (Intrinsic::And, ClassSet::INT_BOOL, false),
        "|" => (Intrinsic::Or, ClassSet::INT_BOOL, false),
        "^" => (Intrinsic::Xor, ClassSet::INT_BOOL, false),
        "<<" => (Intrinsic::Shl, ClassSet::INT, false),
        ">>" => (Intrinsic::Shr, ClassSet::INT, false),
        ">>>" => (Intrinsic::Ushr, ClassSet::INT, false),
        "==" => (Intrinsic::Eq, ClassSet::ANY, true),
        "!=" => (Intrinsic::Neq, ClassSet::ANY, true),
        "<" => (Intrinsic::Lt, ClassSet::PRIM, true),
        "<=" => (Intrinsic::Le, ClassSet::PRIM, true),
        ">" => (Intrinsic::Gt, ClassSet::PRIM, true),
        ">=" => (Intrinsic::Ge, ClassSet::PRIM, true),
        _ => return None,
    };
    Some(BuiltinOp {
        intrinsic,
        class,
        returns_bool,
    })
}

/// The negation of a literal of type `ty`; a suffixed integer literal
/// (`-1u32`) keeps the representation of its type.
pub(crate) fn negate_lit(l: Literal, ty: &Type) -> Literal {
    match (l, ty) {
        (Literal::Int(i), Type::Prim(PrimType::Int(t))) => {
            Literal::Int(wrap_suffixed(-i, *t).unwrap_or(-i))
        }
        (Literal::Int(i), _) => Literal::Int(-i),
        (Literal::Float(x), _) => Literal::Float(-x),
        (b, _) => b,
    }
}

fn lit(l: Literal, ty: Type, span: Span) -> TExp {
    TExp::new(TExpKind::Lit(l), ty, span)
}

pub(crate) fn apply(f: TExp, args: Vec<TExp>, ty: Type, span: Span) -> TExp {
    TExp::new(TExpKind::Apply(Box::new(f), args), ty, span)
}

fn var_exp(v: VarId, ty: Type, span: Span) -> TExp {
    TExp::new(TExpKind::Var(v, vec![], vec![]), ty, span)
}

/// The dimension an argument denotes when passed for a parameter used as
/// a size (`tabulate (n * m) f` has type `[n * m]a`).
/// `constant` gives the values of top-level constants that are known.
/// The dimensions in the parameter types of the functions in `t`.
fn param_dims(t: &Type, out: &mut Vec<Dim>) {
    match t {
        Type::Arrow(a, b) => {
            a.each_dim(&mut |d| out.push(d.clone()));
            param_dims(b, out);
        }
        Type::Tuple(ts) => ts.iter().for_each(|t| param_dims(t, out)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| param_dims(t, out)),
        _ => {}
    }
}

/// A key that two uses of the same pure expression share (variables by
/// their unique ids), or `None` for expressions that are not such sizes
/// (literals of other kinds, lambdas, updates, loops).
fn exp_key(e: &TExp) -> Option<String> {
    let list = |es: &[TExp]| -> Option<String> {
        es.iter()
            .map(exp_key)
            .collect::<Option<Vec<_>>>()
            .map(|ks| ks.join(","))
    };
    Some(match &e.kind {
        TExpKind::Lit(Literal::Int(v)) => format!("{v}"),
        TExpKind::Var(v, inst, _) if inst.is_empty() => format!("v{}", v.0),
        TExpKind::Global(f, inst, _) if inst.is_empty() => format!("g{}", f.0),
        TExpKind::Intrinsic(n, _) => n.to_string(),
        TExpKind::Apply(f, args) => format!("{}({})", exp_key(f)?, list(args)?),
        TExpKind::Tuple(es) => format!("({})", list(es)?),
        TExpKind::Project(x, f) => format!("{}.{f}", exp_key(x)?),
        TExpKind::Index(x, is) => {
            let mut parts = vec![];
            for i in is {
                parts.push(match i {
                    TDimIndex::Fix(i) => exp_key(i)?,
                    TDimIndex::Slice { start, end, stride } => {
                        let k = |e: &Option<TExp>| e.as_ref().map_or(Some(String::new()), exp_key);
                        format!("{}:{}:{}", k(start)?, k(end)?, k(stride)?)
                    }
                });
            }
            format!("{}[{}]", exp_key(x)?, parts.join(","))
        }
        _ => return None,
    })
}

/// The function applied at the bottom of nested applications.
fn head(f: &TExp) -> &TExp {
    match &f.kind {
        TExpKind::Apply(g, _) => head(g),
        _ => f,
    }
}

fn exp_dim(e: &TExp, constant: &impl Fn(FunId) -> Option<i64>) -> Dim {
    match &e.kind {
        TExpKind::Lit(Literal::Int(v)) => i64::try_from(*v).map_or(Dim::Any, Dim::Const),
        TExpKind::Global(f, _, _) => constant(*f).map_or(Dim::Any, Dim::Const),
        TExpKind::Var(v, inst, _) if inst.is_empty() => Dim::Var(*v),
        TExpKind::Assert(_, e) => exp_dim(e, constant),
        TExpKind::Apply(f, args) if args.len() == 2 => {
            let op = match &f.kind {
                TExpKind::Intrinsic(n, _) => match Intrinsic::from_name(n) {
                    Some(Intrinsic::Add) => SizeOp::Add,
                    Some(Intrinsic::Sub) => SizeOp::Sub,
                    Some(Intrinsic::Mul) => SizeOp::Mul,
                    _ => return Dim::Any,
                },
                _ => return Dim::Any,
            };
            match (exp_dim(&args[0], constant), exp_dim(&args[1], constant)) {
                (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                (a, b) => Dim::Op(op, Box::new(a), Box::new(b)),
            }
        }
        _ => Dim::Any,
    }
}

impl Checker {
    /// `file:line:col-col` (or `file:line:col-line:col`) of a span, for
    /// messages that name a location in their text; as in Futhark's
    /// messages, the end is the column just after the span.
    pub(crate) fn loc_text(&self, span: Span) -> String {
        let f = self.files.sources.get(span.file);
        let (l1, c1) = f.line_col(span.start as usize);
        let (l2, c2) = f.line_col(span.end as usize);
        if l1 == l2 {
            format!("{}:{l1}:{c1}-{c2}", f.name)
        } else {
            format!("{}:{l1}:{c1}-{l2}:{c2}", f.name)
        }
    }

    /// A typed hole (`???`) of type `t`: it checks as any type, and
    /// evaluating it is a run-time error naming its location. It is the
    /// intrinsic `__hole` applied to that message (see [`crate::tast::hole_message`]).
    pub(crate) fn hole(&mut self, t: Type, span: Span) -> TExp {
        let u8t = Type::Prim(PrimType::Int(IntType::U8));
        let msg = format!("hole at {} reached", self.loc_text(span));
        let elems: Vec<TExp> = msg
            .bytes()
            .map(|b| lit(Literal::Int(b as i128), u8t.clone(), span))
            .collect();
        let n = Dim::Const(elems.len() as i64);
        let msg_ty = Type::array_dims(u8t, vec![n]);
        let f = TExp::new(
            TExpKind::Intrinsic(Intrinsic::Hole.name(), vec![t.clone()]),
            Type::arrow(msg_ty.clone(), t.clone()),
            span,
        );
        let arg = TExp::new(TExpKind::ArrayLit(elems), msg_ty, span);
        apply(f, vec![arg], t, span)
    }

    pub fn check_exp(&mut self, e: &Exp) -> Res<TExp> {
        let span = e.span;
        match &e.kind {
            ExpKind::Lit(l) => self.check_lit(l, span),
            ExpKind::StringLit(s) => {
                let u8t = Type::Prim(PrimType::Int(IntType::U8));
                let elems: Vec<TExp> = s
                    .bytes()
                    .map(|b| lit(Literal::Int(b as i128), u8t.clone(), span))
                    .collect();
                let n = Dim::Const(elems.len() as i64);
                Ok(TExp::new(
                    TExpKind::ArrayLit(elems),
                    Type::array_dims(u8t, vec![n]),
                    span,
                ))
            }
            ExpKind::Var(q) => self.check_var(q),
            ExpKind::Hole if self.rep_size_spans.contains(&span) => {
                // The size of a replicate AUTOMAP inserted: inferred from
                // `replicate`'s result when finishing.
                Ok(self.hole(Type::i64(), span))
            }
            ExpKind::Hole => {
                let t = self.inf.fresh();
                self.user_holes.push((span, t.clone(), None));
                Ok(self.hole(t, span))
            }
            ExpKind::Tuple(es) => {
                if es.len() == 1 {
                    return self.check_exp(&es[0]);
                }
                let ts = es
                    .iter()
                    .map(|e| self.check_exp(e))
                    .collect::<Res<Vec<_>>>()?;
                let ty = Type::Tuple(ts.iter().map(|t| t.ty.clone()).collect());
                Ok(TExp::new(TExpKind::Tuple(ts), ty, span))
            }
            ExpKind::Record(fields) => {
                let mut out: Vec<(String, TExp)> = vec![];
                for f in fields {
                    let (name, te) = match f {
                        FieldExp::Explicit(n, e) => (n, self.check_exp(e)?),
                        FieldExp::Implicit(n) => {
                            let q = QualName {
                                quals: vec![],
                                name: n.name.clone(),
                                span: n.span,
                            };
                            (n, self.check_var(&q)?)
                        }
                    };
                    if out.iter().any(|(m, _)| *m == name.name) {
                        return Err(Diagnostic::error(
                            name.span,
                            format!(
                                "field '{}' was previously defined in this record",
                                name.name
                            ),
                        ));
                    }
                    out.push((name.name.clone(), te));
                }
                let names: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
                if let Some(order) = tuple_order(&names) {
                    let mut slots: Vec<Option<TExp>> =
                        out.into_iter().map(|(_, e)| Some(e)).collect();
                    let es: Vec<TExp> = order.into_iter().filter_map(|i| slots[i].take()).collect();
                    let ty = Type::Tuple(es.iter().map(|e| e.ty.clone()).collect());
                    return Ok(TExp::new(TExpKind::Tuple(es), ty, span));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                let ty = Type::Record(out.iter().map(|(n, e)| (n.clone(), e.ty.clone())).collect());
                Ok(TExp::new(TExpKind::Record(out), ty, span))
            }
            ExpKind::ArrayLit(es) => {
                // `elem` is kept resolved, and each element's type is bound
                // to it rather than the other way round: otherwise the
                // variables of unsuffixed literals form a chain as long as
                // the array, walked at every element (quadratic).
                let mut elem = self.inf.fresh();
                let mut out = vec![];
                for x in es {
                    let tx = self.check_exp(x)?;
                    elem = self.inf.shallow(&elem);
                    // A failed unification of sum types may have merged
                    // some constructors: name the types as they were.
                    let shown = (self.is_sum(&tx.ty) || self.is_sum(&elem))
                        .then(|| (self.show(&tx.ty), self.show(&elem)));
                    self.inf.unify(&tx.ty, &elem).map_err(|_| {
                        let (a, b) = shown
                            .unwrap_or_else(|| (self.show(&tx.ty), self.show(&elem)));
                        Diagnostic::error(
                            x.span,
                            format!(
                                "array element of type '{a}' differs from earlier elements of type '{b}'"
                            ),
                        )
                    })?;
                    out.push(tx);
                }
                if self.inf.require_unlifted(&elem).is_err() {
                    return Err(lifted_array(span, &self.show(&elem)));
                }
                let size_lifted = std::cell::Cell::new(false);
                self.inf.zonk(&elem).subst(&|p| {
                    size_lifted.set(size_lifted.get() || self.inf.size_lifted.contains(&p));
                    None
                });
                if size_lifted.get() {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "Cannot create array with elements of size-lifted type '{}': its values may differ in size, so they cannot be array elements",
                            self.show(&elem)
                        ),
                    ));
                }
                let n = Dim::Const(out.len() as i64);
                Ok(TExp::new(
                    TExpKind::ArrayLit(out),
                    Type::array_dims(elem, vec![n]),
                    span,
                ))
            }
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => {
                let t = self.inf.fresh_class(ClassSet::INT);
                let ts = self.check_int_in(start, &t, "range bounds")?;
                let t2 = match second {
                    Some(s) => Some(Box::new(self.check_int_in(s, &t, "range bounds")?)),
                    None => None,
                };
                let te = self.check_int_in(end, &t, "range bounds")?;
                let kind = match kind {
                    RangeEnd::UpToExclusive => RangeKind::UpToExclusive,
                    RangeEnd::DownToExclusive => RangeKind::DownToExclusive,
                    RangeEnd::Inclusive => RangeKind::Inclusive,
                };
                // `a..<b` has `b - a` elements (`b` when `a` is 0),
                // `0...n` has `n + 1` and `1...n` and `1..2...n` have `n`;
                // the lengths of other ranges are unknown.
                let lit =
                    |e: &TExp, k: i128| matches!(e.kind, TExpKind::Lit(Literal::Int(j)) if j == k);
                let unit = match (&t2, &kind) {
                    (None, _) => true,
                    (Some(s2), RangeKind::UpToExclusive) => lit(&ts, 0) && lit(s2, 1),
                    (Some(s2), RangeKind::Inclusive) => lit(&ts, 1) && lit(s2, 2),
                    _ => false,
                };
                let is_i64 = self.inf.zonk(&t) == Type::i64();
                let len = if !is_i64 || !unit {
                    Dim::Any
                } else {
                    let end = self.size_of_exp(&te, UnknownSource::Range);
                    let start = self.size_of_exp(&ts, UnknownSource::Range);
                    let op = |o, a: Dim, b: Dim| Dim::Op(o, Box::new(a), Box::new(b));
                    match &kind {
                        RangeKind::UpToExclusive if lit(&ts, 0) => end,
                        RangeKind::UpToExclusive => op(SizeOp::Sub, end, start),
                        RangeKind::Inclusive if lit(&ts, 0) => op(SizeOp::Add, end, Dim::Const(1)),
                        RangeKind::Inclusive if lit(&ts, 1) => end,
                        RangeKind::Inclusive if t2.is_none() => {
                            op(SizeOp::Add, op(SizeOp::Sub, end, start), Dim::Const(1))
                        }
                        _ => Dim::Any,
                    }
                };
                let len = if len == Dim::Any {
                    self.fresh_unknown(UnknownSource::Range, span)
                } else {
                    len
                };
                Ok(TExp::new(
                    TExpKind::Range {
                        start: Box::new(ts),
                        second: t2,
                        end: Box::new(te),
                        kind,
                    },
                    Type::array_dims(t, vec![len]),
                    span,
                ))
            }
            ExpKind::Project(inner, field) => {
                let ti = self.check_exp(inner)?;
                self.project(ti, &field.name, span)
            }
            ExpKind::Index(arr, slices) => {
                let ta = self.check_exp(arr)?;
                self.index(ta, slices, span)
            }
            ExpKind::Update(arr, slices, v) => {
                let ta = self.check_exp(arr)?;
                let arr_ty = ta.ty.clone();
                let indexed = self.index(ta, slices, span)?;
                let TExpKind::Index(ta, tslices) = indexed.kind else {
                    unreachable!()
                };
                let tv = self.check_exp(v)?;
                // The value's size is checked against the slice's at run
                // time (`xs with [i:j] = ys` inside a map over `i` and `j`).
                let slice_ty = self.anon_dims(&indexed.ty);
                self.unify_at(v.span, &slice_ty, &tv.ty)?;
                Ok(TExp::new(
                    TExpKind::Update(ta, tslices, Box::new(tv)),
                    arr_ty,
                    span,
                ))
            }
            ExpKind::RecordUpdate(r, path, v) => {
                let tr = self.check_exp(r)?;
                let mut t = tr.ty.clone();
                for f in path {
                    t = self.field_of(&t, &f.name, f.span)?;
                }
                let tv = self.check_exp(v)?;
                let (vt, ft) = (self.show(&tv.ty), self.show(&t));
                self.unify_at(v.span, &t, &tv.ty).map_err(|d| {
                    let field = path.iter().map(|f| f.name.as_str()).collect::<Vec<_>>();
                    Diagnostic {
                        message: format!(
                            "value of type '{vt}' given for record field \"{}\" of type '{ft}': {}",
                            field.join("."),
                            d.message
                        ),
                        ..d
                    }
                })?;
                let ty = tr.ty.clone();
                let path = path.iter().map(|f| f.name.clone()).collect();
                Ok(TExp::new(
                    TExpKind::RecordUpdate(Box::new(tr), path, Box::new(tv)),
                    ty,
                    span,
                ))
            }
            ExpKind::Apply(f, args) => {
                let tf = self.check_exp(f)?;
                let what = describe_fn(f);
                let mut targs = vec![];
                for a in args {
                    targs.push(self.check_exp(a)?);
                }
                self.apply_texp(tf, targs, &what, span, true)
            }
            ExpKind::BinOp(..) => self.check_binop_chain(e),
            ExpKind::Negate(inner) => {
                if let ExpKind::Lit(l @ (Lit::Int { .. } | Lit::Float { .. })) = &inner.kind {
                    let mut t = self.check_lit(l, span)?;
                    if let TExpKind::Lit(v) = &mut t.kind {
                        *v = negate_lit(*v, &t.ty);
                    }
                    return Ok(t);
                }
                let ti = self.check_exp(inner)?;
                self.unary(Intrinsic::Neg, "-", ClassSet::NUM, ti, span)
            }
            ExpKind::Not(inner) => {
                let ti = self.check_exp(inner)?;
                self.unary(Intrinsic::Not, "!", ClassSet::INT_BOOL, ti, span)
            }
            ExpKind::If(c, t, f) => {
                let tc = self.check_exp(c)?;
                self.expect_bool(&tc, "condition of 'if'")?;
                let tt = self.check_exp(t)?;
                let tf = self.check_exp(f)?;
                self.inf.unify(&tt.ty, &tf.ty).map_err(|_| {
                    Diagnostic::error(
                        f.span,
                        format!(
                            "Cannot unify the types of the branches of 'if': '{}' and '{}'",
                            self.show(&tt.ty),
                            self.show(&tf.ty)
                        ),
                    )
                    .with_label(
                        t.span,
                        format!("this branch has type '{}'", self.show(&tt.ty)),
                    )
                })?;
                if self.inf.require_unlifted(&tt.ty).is_err() {
                    return Err(no_function(
                        span,
                        "the result of an 'if'",
                        &self.show(&tt.ty),
                    ));
                }
                // A size the branches disagree on is unknown.
                let (a, b) = (self.inf.zonk(&tt.ty), self.inf.zonk(&tf.ty));
                let source = UnknownSource::Branches(self.show_sized(&a), self.show_sized(&b));
                let ty = merge_dims(&a, &b, &mut || self.fresh_unknown(source.clone(), span));
                Ok(TExp::new(
                    TExpKind::If(Box::new(tc), Box::new(tt), Box::new(tf)),
                    ty,
                    span,
                ))
            }
            ExpKind::Let {
                sizes,
                pat,
                rhs,
                body,
            } => {
                let trhs = self.check_exp(rhs)?;
                let mut names: Vec<(String, Span)> =
                    sizes.iter().map(|s| (s.name.clone(), s.span)).collect();
                pat_names(pat, &mut names);
                check_distinct(&names)?;
                let mark = self.scope.len();
                let mut sz = Sizes::default();
                for s in sizes {
                    let v = self.new_var(&s.name, Type::i64(), s.span);
                    sz.pending.push((s.name.clone(), v));
                    self.bind(&s.name, v, Type::i64());
                }
                let mut binds = vec![];
                let res = self.check_pat(pat, &trhs.ty, None, &mut sz, &mut binds);
                let tpat = match res {
                    Ok(p) => p,
                    Err(e) => {
                        self.scope.truncate(mark);
                        return Err(e);
                    }
                };
                // The sizes the pattern names must agree with those of the
                // value wherever both are known (`let [n] (a: [n]i32, b:
                // [n]i32) = (iota 1, iota 2)` is rejected).
                if let Err(d) = self.let_sizes_agree(&sz, rhs.span) {
                    self.scope.truncate(mark);
                    return Err(d);
                }
                let trhs = self.coerce_to(trhs, sz.declared_shape(&tpat));
                // Each size is read off the type of a variable the pattern
                // binds (`let [n] (xs: [n]i32) = …`).
                for (name, s) in &sz.pending {
                    if !sz.found.iter().any(|f| f.size == *s) {
                        self.scope.truncate(mark);
                        let span = self.vars[s.0 as usize].span;
                        let msg = match mentions(pat, name) {
                            true => format!(
                                "Cannot bind [{name}]: it is used only non-constructively (in a function's parameter or result, or an abstract type's argument), not as the size of an array the pattern binds."
                            ),
                            false => format!("Size [{name}] unused in pattern."),
                        };
                        return Err(Diagnostic::error(span, msg).with_note(
                            "give a variable of the pattern an array type of that size",
                        ));
                    }
                }
                // An empty array literal has no rows to take an inner size
                // from (`let [n][m] (xss: [n][m]i64) = []`).
                if matches!(&trhs.kind, TExpKind::ArrayLit(es) if es.is_empty())
                    || matches!(&trhs.kind, TExpKind::Coerce(e) if matches!(&e.kind, TExpKind::ArrayLit(es) if es.is_empty()))
                {
                    let inner_only = sz.found.iter().find(|f| {
                        f.dim >= 1 && !sz.found.iter().any(|g| g.size == f.size && g.dim == 0)
                    });
                    if let Some(f) = inner_only {
                        self.scope.truncate(mark);
                        let name = self.vars[f.size.0 as usize].name.clone();
                        return Err(Diagnostic::error(
                            self.vars[f.size.0 as usize].span,
                            format!(
                                "Ambiguous size \"{name}\": it is an inner size of an empty array literal, which has no rows to take it from."
                            ),
                        )
                        .with_note("give the literal a type with that size known ([] : [0][k]t)"));
                    }
                }
                self.bind_all(binds);
                let tbody = self.check_exp(body);
                self.scope.truncate(mark);
                let tbody = tbody?;
                // Sizes named by variables that go out of scope here: a
                // variable bound to a size expression (`let m = n + 1`)
                // stands for that expression; others become unknown.
                let mut bound = vec![];
                tpat.vars(&mut bound);
                bound.extend(sz.pending.iter().map(|(_, v)| *v));
                let def = match &tpat {
                    TPat::Var(v, _, _) => Some((*v, exp_dim(&trhs, &|f| self.constant(f, 0)))),
                    _ => None,
                };
                let body_ty = self.inf.zonk(&tbody.ty);
                let mut named = vec![];
                body_ty.each_dim(&mut |d| d.vars(&mut named));
                let mut lost: Vec<(VarId, Dim)> = vec![];
                for v in named {
                    let defined = matches!(&def, Some((w, d)) if *w == v && *d != Dim::Any);
                    if bound.contains(&v) && !defined && !lost.iter().any(|(w, _)| *w == v) {
                        let name = self.vars[v.0 as usize].name.clone();
                        lost.push((v, self.fresh_unknown(UnknownSource::OutOfScope(name), span)));
                    }
                }
                // A function whose parameter has a size that goes out of
                // scope here could never be applied.
                let mut in_params = vec![];
                param_dims(&body_ty, &mut in_params);
                if let Some((v, _)) = lost.iter().find(|(v, _)| {
                    in_params.iter().any(|d| {
                        let mut vs = vec![];
                        d.vars(&mut vs);
                        vs.contains(v)
                    })
                }) {
                    return Err(Diagnostic::error(
                        tbody.span,
                        format!(
                            "Unknown size \"{}\" in parameter of the function this expression returns: \"{}\" goes out of scope here, so no argument could have that size.",
                            self.vars[v.0 as usize].name,
                            self.vars[v.0 as usize].name
                        ),
                    )
                    .with_note("give the parameter an unknown size ([]) and coerce it (:>) inside the function"));
                }
                let ty = body_ty.map_dims(&|d| {
                    out_of_scope(d, &|v| match &def {
                        Some((w, d)) if *w == v && *d != Dim::Any => Some(d.clone()),
                        _ => lost.iter().find(|(w, _)| *w == v).map(|(_, u)| u.clone()),
                    })
                });
                Ok(TExp::new(
                    TExpKind::Let {
                        sizes: sz.found,
                        pat: tpat,
                        rhs: Box::new(trhs),
                        body: Box::new(tbody),
                    },
                    ty,
                    span,
                ))
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                ret,
                rhs,
                body,
            } => {
                let f = self.check_local_fun(name, type_params, params, ret.as_ref(), rhs)?;
                self.local_uniq.insert(
                    f.var,
                    crate::unique::USig {
                        params: params.iter().map(crate::unique::UShape::of_pat).collect(),
                        ret: ret
                            .as_ref()
                            .map(crate::unique::UShape::of_type)
                            .unwrap_or(crate::unique::UShape::Shared),
                        globals: vec![],
                        inferred: None,
                        declared_ret: ret.is_some(),
                        fn_params: params.iter().map(crate::unique::UShape::fn_param).collect(),
                    },
                );
                let mark = self.scope.len();
                let fty = self.vars[f.var.0 as usize].ty.clone();
                self.scope.push((
                    name.name.clone(),
                    Local {
                        var: f.var,
                        poly: f.type_params.clone(),
                        ty: fty,
                    },
                ));
                let tbody = self.check_exp(body);
                self.scope.truncate(mark);
                let tbody = tbody?;
                let ty = tbody.ty.clone();
                Ok(TExp::new(
                    TExpKind::LetFun(Box::new(f), Box::new(tbody)),
                    ty,
                    span,
                ))
            }
            ExpKind::Lambda { params, ret, body } => {
                let mark = self.scope.len();
                let r = self.check_lambda(params, ret.as_ref(), body, span);
                self.scope.truncate(mark);
                r
            }
            ExpKind::OpSection(op) => self.op_fn(op),
            ExpKind::OpSectionLeft(op, x) => {
                let f = self.op_fn(op)?;
                let tx = self.check_exp(x)?;
                self.apply_texp(f, vec![tx], &format!("'{}'", op.full()), span, false)
            }
            ExpKind::OpSectionRight(op, y) => {
                // (op y) is \x -> x op y, with y evaluated once, outside.
                let f = self.op_fn(op)?;
                let ty = self.check_exp(y)?;
                let yt = ty.ty.clone();
                let yv = self.new_var("y", yt.clone(), y.span);
                let xt = self.inf.fresh();
                let xv = self.new_var("x", xt.clone(), span);
                let body = self.apply_texp(
                    f,
                    vec![
                        var_exp(xv, xt.clone(), span),
                        var_exp(yv, yt.clone(), y.span),
                    ],
                    &format!("'{}'", op.full()),
                    span,
                    false,
                )?;
                let fty = Type::arrow(xt.clone(), body.ty.clone());
                let lam = TExp::new(
                    TExpKind::Lambda(vec![TPat::Var(xv, xt, span)], Box::new(body)),
                    fty.clone(),
                    span,
                );
                Ok(TExp::new(
                    TExpKind::Let {
                        sizes: vec![],
                        pat: TPat::Var(yv, yt, y.span),
                        rhs: Box::new(ty),
                        body: Box::new(lam),
                    },
                    fty,
                    span,
                ))
            }
            ExpKind::ProjectSection(steps) => {
                let xt = self.inf.fresh();
                let xv = self.new_var("x", xt.clone(), span);
                let mut body = var_exp(xv, xt.clone(), span);
                for s in steps {
                    body = match s {
                        SectionStep::Field(f) => self.project(body, &f.name, f.span)?,
                        SectionStep::Index(slices) => self.index(body, slices, span)?,
                    };
                }
                let fty = Type::arrow(xt.clone(), body.ty.clone());
                Ok(TExp::new(
                    TExpKind::Lambda(vec![TPat::Var(xv, xt, span)], Box::new(body)),
                    fty,
                    span,
                ))
            }
            ExpKind::Loop {
                sizes,
                pat,
                init,
                form,
                body,
            } => self.check_loop(sizes, pat, init.as_deref(), form, body, span),
            ExpKind::Ascribe(inner, te) | ExpKind::Coerce(inner, te) => {
                let t = self.type_exp(te)?;
                let ti = self.check_exp(inner)?;
                let mark = self.inf.mismatch_mark();
                self.unify_at(inner.span, &t, &ti.ty)
                    .map_err(|d| Diagnostic {
                        message: format!("Expression does not have expected type: {}", d.message),
                        ..d
                    })?;
                if matches!(e.kind, ExpKind::Ascribe(..)) {
                    let lead = "Expression does not have expected type.";
                    self.sizes_agree(mark, inner.span, lead, &t, &ti.ty)?;
                }
                // The declared sizes hold from here on (checked at run time).
                let mut known = false;
                t.each_dim(&mut |d| known |= *d != Dim::Any);
                if !known {
                    return Ok(ti);
                }
                let ty = self.inf.zonk(&t);
                Ok(TExp::new(TExpKind::Coerce(Box::new(ti)), ty, span))
            }
            ExpKind::Assert(c, inner) => {
                let tc = self.check_exp(c)?;
                self.expect_bool(&tc, "assertion")?;
                let ti = self.check_exp(inner)?;
                if self.in_unsafe {
                    return Ok(ti);
                }
                let ty = ti.ty.clone();
                Ok(TExp::new(
                    TExpKind::Assert(Box::new(tc), Box::new(ti)),
                    ty,
                    span,
                ))
            }
            ExpKind::Constr(name, args) => {
                let targs = args
                    .iter()
                    .map(|a| self.check_exp(a))
                    .collect::<Res<Vec<_>>>()?;
                let payload = targs.iter().map(|a| a.ty.clone()).collect();
                let ty = self.inf.fresh_with_constr(&name.name, payload, false);
                Ok(TExp::new(
                    TExpKind::Constr(name.name.clone(), targs),
                    ty,
                    span,
                ))
            }
            ExpKind::Match(scrut, cases) => self.check_match(scrut, cases, span),
            ExpKind::Attr(attr, inner) => {
                let unsafe_ = matches!(attr, Attr::Atom(n, _) if n == "unsafe");
                let was = self.in_unsafe;
                self.in_unsafe |= unsafe_;
                let t = self.check_exp(inner);
                self.in_unsafe = was;
                let mut t = t?;
                // `#[param(name)] e` names a tuning parameter. Loops keep
                // their attributes (in source order: this one encloses
                // those already there); on other expressions they carry no
                // meaning here and are dropped.
                if let Attr::Comp(n, args, _) = attr {
                    if let (true, [Attr::Atom(name, _)]) = (n == "param", args.as_slice()) {
                        let (ty, span) = (t.ty.clone(), t.span);
                        return Ok(TExp::new(
                            TExpKind::UserParam(name.clone(), Box::new(t)),
                            ty,
                            span,
                        ));
                    }
                }
                if let TExpKind::Loop { attrs, .. } = &mut t.kind {
                    attrs.insert(0, attr.clone());
                }
                Ok(t)
            }
            ExpKind::QualParens(q, inner) => {
                let mut path = q.quals.clone();
                path.push(q.name.clone());
                match self.lookup_mod_path(&path, q.span)? {
                    Some(Module::Prim(p)) => {
                        self.opened.push(p);
                        let r = self.check_exp(inner);
                        self.opened.pop();
                        r
                    }
                    Some(Module::Struct(env)) => {
                        let mark = self.types.len();
                        self.types.extend(env.types.iter().cloned());
                        self.opened_envs.push((self.scope.len(), env));
                        let r = self.check_exp(inner);
                        self.opened_envs.pop();
                        self.types.truncate(mark);
                        r
                    }
                    Some(Module::Functor(_)) => Err(Diagnostic::error(
                        q.span,
                        format!("cannot open '{}': it is a parametric module", q.full()),
                    )),
                    None => Err(Diagnostic::error(
                        q.span,
                        format!("unknown module '{}'", q.full()),
                    )),
                }
            }
        }
    }

    pub(crate) fn check_lit(&mut self, l: &Lit, span: Span) -> Res<TExp> {
        Ok(match l {
            Lit::Int { value, suffix } => {
                let v = Literal::Int(*value as i128);
                match suffix {
                    Some(IntSuffix::Int(t)) => {
                        let w = wrap_suffixed(*value as i128, *t).unwrap_or(*value as i128);
                        lit(Literal::Int(w), int_prim(*t), span)
                    }
                    Some(IntSuffix::Float(t)) => {
                        lit(Literal::Float(*value as f64), float_prim(*t), span)
                    }
                    None => lit(v, self.inf.fresh_class(ClassSet::NUM), span),
                }
            }
            Lit::Char(c) => lit(
                Literal::Int(*c as i128),
                self.inf.fresh_class(ClassSet::NUM),
                span,
            ),
            Lit::Float { value, suffix } => {
                // A literal too large for any float type reads as infinity
                // (the later check against its type sees only the value).
                if value.is_infinite() {
                    let t = suffix.unwrap_or(FloatType::F64).name();
                    return Err(Diagnostic::error(
                        span,
                        format!("literal is out of bounds for its inferred type '{t}'"),
                    ));
                }
                let ty = match suffix {
                    Some(t) => float_prim(*t),
                    None => self.inf.fresh_class(ClassSet::FLOAT),
                };
                lit(Literal::Float(*value), ty, span)
            }
            Lit::Bool(b) => lit(Literal::Bool(*b), Type::bool(), span),
        })
    }

    fn check_int_in(&mut self, e: &Exp, t: &Type, what: &str) -> Res<TExp> {
        let te = self.check_exp(e)?;
        self.inf.unify(t, &te.ty).map_err(|err| match err {
            UnifyError::Class(..) => Diagnostic::error(
                e.span,
                format!(
                    "{what} must be integers, but this has type '{}'",
                    self.show(&te.ty)
                ),
            ),
            _ => Diagnostic::error(
                e.span,
                format!(
                    "{what} have different types: '{}' and '{}'",
                    self.show(t),
                    self.show(&te.ty)
                ),
            ),
        })?;
        Ok(te)
    }

    pub(crate) fn expect_bool(&mut self, e: &TExp, what: &str) -> Res<()> {
        self.inf.unify(&Type::bool(), &e.ty).map_err(|_| {
            Diagnostic::error(
                e.span,
                format!(
                    "{what} must be of type 'bool', but has type '{}'",
                    self.show(&e.ty)
                ),
            )
        })
    }

    /// Instantiates a type scheme with fresh variables, and its sizes
    /// with fresh size variables.
    pub(crate) fn instantiate(
        &mut self,
        params: &[TypeParamId],
        sizes: Option<SizeScheme>,
        ty: &Type,
    ) -> (Vec<Type>, Vec<SizeInst>, Type) {
        let svars = sizes.map(|s| s.vars).unwrap_or_default();
        if params.is_empty() && svars.is_empty() {
            return (vec![], vec![], ty.clone());
        }
        let ty = &self.inf.zonk(ty);
        let mut inst: Vec<Type> = vec![];
        for p in params {
            let t = self.inf.fresh();
            if let (true, Type::Var(n)) = (self.lifted_tparams.contains(p), &t) {
                self.lifted_vars.insert(*n);
            }
            // A fresh variable accepts the restrictions.
            if self.inf.size_lifted.contains(p) {
                let _ = self.inf.require_unlifted(&t);
            } else if !self.inf.lifted.contains(p) {
                let _ = self.inf.require_strict(&t);
            }
            inst.push(t);
        }
        let mut t = ty.subst(&|p| params.iter().position(|q| *q == p).map(|i| inst[i].clone()));
        let sinst: Vec<SizeInst> = svars
            .into_iter()
            .map(|v| (v, self.inf.fresh_dim()))
            .collect();
        if !sinst.is_empty() {
            let find = |v: VarId| sinst.iter().find(|(w, _)| *w == v).map(|(_, d)| d.clone());
            t = t.map_dims(&|d| d.subst_vars(&find));
        }
        (inst, sinst, t)
    }

    /// The size variable instantiated for the parameter that argument
    /// `i` of an application of `f` is passed for, if that parameter is
    /// used as a size.
    fn param_dim(&self, f: &TExp, i: usize) -> Option<Dim> {
        let (mut g, mut i) = (f, i);
        while let TExpKind::Apply(h, prev) = &g.kind {
            i += prev.len();
            g = h;
        }
        let (scheme, sinst) = match &g.kind {
            TExpKind::Global(id, _, sinst) => (self.fun_sizes.get(id)?, sinst),
            TExpKind::Var(v, _, sinst) => (self.local_sizes.get(v)?, sinst),
            _ => return None,
        };
        let pv = (*scheme.params.get(i)?)?;
        sinst.iter().find(|(v, _)| *v == pv).map(|(_, d)| d.clone())
    }

    pub(crate) fn check_var(&mut self, q: &QualName) -> Res<TExp> {
        let span = q.span;
        if q.quals.is_empty() {
            return self.check_name(&q.name, span);
        }
        let head = &q.quals[0];
        let project = |ck: &mut Self, mut e: TExp, fields: &[String]| -> Res<TExp> {
            for f in fields {
                e = ck.project(e, f, span)?;
            }
            Ok(e)
        };
        let all: Vec<String> = q
            .quals
            .iter()
            .chain(std::iter::once(&q.name))
            .cloned()
            .collect();
        if self.lookup(head).is_some() && self.opened_val(head).is_none() {
            let e = self.check_name(head, span)?;
            return project(self, e, &all[1..]);
        }
        // The longest prefix of module names: `M.N.x.f` is field `f` of
        // value `x` of module `M.N`.
        if let Some(mut m) = self.lookup_mod(head).filter(|_| head != "intrinsics") {
            let mut k = 1;
            while k + 1 < all.len() {
                match &m {
                    Module::Struct(env) if env.module(&all[k]).is_some() => {
                        m = env.module(&all[k]).cloned().expect("checked");
                        k += 1;
                    }
                    _ => break,
                }
            }
            let e = self.module_member(&m, &all[..k], &all[k], span)?;
            return project(self, e, &all[k + 1..]);
        }
        if self.globals.contains_key(head) {
            let e = self.check_name(head, span)?;
            return project(self, e, &all[1..]);
        }
        // `intrinsics.scatter_stream` and friends: the array intrinsics
        // that Futhark's `intrinsics` module offers to programs.
        if let ("intrinsics", 1) = (head.as_str(), q.quals.len()) {
            if let Some(sig) = module_intrinsic(&q.name) {
                return Ok(self.intrinsic_exp(sig, span));
            }
            return Err(Diagnostic::error(
                span,
                format!("module 'intrinsics' has no member '{}'", q.name),
            ));
        }
        Err(Diagnostic::error(
            span,
            format!(
                "Unknown name '{}': there is no module or variable '{head}' in scope",
                q.full()
            ),
        ))
    }

    /// Value `name` of module `m` (named `path`).
    fn module_member(&mut self, m: &Module, path: &[String], name: &str, span: Span) -> Res<TExp> {
        let missing = || {
            Diagnostic::error(
                span,
                format!("module '{}' has no member '{name}'", path.join(".")),
            )
        };
        match m {
            Module::Prim(p) => self.numeric_member(*p, name, span)?.ok_or_else(missing),
            Module::Struct(env) => {
                let g = env.val(name).cloned().ok_or_else(missing)?;
                Ok(self.global_exp(&g, span))
            }
            Module::Functor(_) => Err(Diagnostic::error(
                span,
                format!(
                    "'{}' is a parametric module; apply it to a module before using its members",
                    path.join(".")
                ),
            )),
        }
    }

    /// A use of a top-level value, at fresh types; a value seen through
    /// an ascription has the type the module type gives it.
    pub(crate) fn global_exp(&mut self, g: &Global, span: Span) -> TExp {
        let sizes = self.fun_sizes.get(&g.id).cloned();
        let (inst, sinst, ty) = self.instantiate(&g.type_params, sizes, &g.ty);
        let ty = match &g.view {
            None => ty,
            Some((vps, vty)) => {
                let (_, _, v) = self.instantiate(vps, None, vty);
                let expanded = self.expand_abstract(&v);
                // Ascription checked that the types agree; this resolves
                // the function's own type arguments.
                let _ = self.inf.unify(&expanded, &ty);
                v
            }
        };
        TExp::new(TExpKind::Global(g.id, inst, sinst), ty, span)
    }

    /// A use of an array intrinsic, at fresh types.
    fn intrinsic_exp(&mut self, sig: crate::intrinsics::Signature, span: Span) -> TExp {
        let inst: Vec<Type> = sig
            .params
            .iter()
            .map(|c| self.inf.fresh_class(*c))
            .collect();
        let ty = (sig.build)(&inst);
        TExp::new(TExpKind::Intrinsic(sig.name, inst), ty, span)
    }

    fn check_name(&mut self, name: &str, span: Span) -> Res<TExp> {
        // A leading underscore marks a binding as deliberately unused.
        if name.starts_with('_') && !self.in_prelude && array_intrinsic(name).is_none() {
            return Err(Diagnostic::error(
                span,
                format!("'{name}' may not be used: names beginning with an underscore are for bindings that are never used"),
            ));
        }
        if let Some(g) = self.opened_val(name) {
            return Ok(self.global_exp(&g, span));
        }
        if let Some(l) = self.lookup(name).cloned() {
            let sizes = self.local_sizes.get(&l.var).cloned();
            let (inst, sinst, ty) = self.instantiate(&l.poly, sizes, &l.ty);
            return Ok(TExp::new(TExpKind::Var(l.var, inst, sinst), ty, span));
        }
        for i in (0..self.opened.len()).rev() {
            if let Some(e) = self.numeric_member(self.opened[i], name, span)? {
                return Ok(e);
            }
        }
        if let Some(r) = self.rec_fun.as_mut().filter(|r| r.name == name) {
            r.used = true;
            let r = r.clone();
            let (_, sinst, ty) = self.instantiate(&[], r.sizes, &r.ty);
            let inst = r.type_params.iter().map(|p| Type::Param(*p)).collect();
            return Ok(TExp::new(TExpKind::Global(r.id, inst, sinst), ty, span));
        }
        if let Some(g) = self.globals.get(name).cloned() {
            return Ok(self.global_exp(&g, span));
        }
        if let Some(sig) = array_intrinsic(name) {
            return Ok(self.intrinsic_exp(sig, span));
        }
        if matches!(self.lookup_type(name), Some(TypeName::Size)) {
            return Err(Diagnostic::error(
                span,
                format!("size '{name}' can only be used in types here"),
            ));
        }
        Err(Diagnostic::error(span, format!("Unknown name \"{name}\"")))
    }

    /// The type of field `f` of a value of type `t`.
    fn field_of(&mut self, t: &Type, f: &str, span: Span) -> Res<Type> {
        let st = self.inf.shallow(t);
        match &st {
            Type::Record(_) | Type::Tuple(_) => {
                field_type(&st, f).ok_or_else(|| no_field(span, &self.show(&st), f))
            }
            Type::Var(_) => {
                let ft = self.inf.fresh();
                let want = self.inf.fresh_with_field(f, ft.clone());
                self.inf
                    .unify(&st, &want)
                    .map_err(|_| no_field(span, &self.show(&st), f))?;
                Ok(ft)
            }
            _ => Err(no_field(span, &self.show(&st), f)),
        }
    }

    pub(crate) fn project(&mut self, e: TExp, f: &str, span: Span) -> Res<TExp> {
        let ft = self.field_of(&e.ty, f, span)?;
        let span = e.span.to(span);
        Ok(TExp::new(
            TExpKind::Project(Box::new(e), f.to_string()),
            ft,
            span,
        ))
    }

    /// Checks statically that the value bound by a `let` agrees with the
    /// sizes its pattern binds (`[n]`): every dimension of the value that
    /// a size is read from must be the same where they are known (`let [n]
    /// (a: [n]i32, b: [n]i32) = (iota 1, iota 2)` is rejected).
    fn let_sizes_agree(&mut self, sz: &Sizes, span: Span) -> Res<()> {
        for (name, v) in &sz.pending {
            let mut seen: Option<Dim> = None;
            for src in sz.found.iter().filter(|f| f.size == *v) {
                let t = self.inf.zonk(&self.vars[src.of.0 as usize].ty);
                let Some(d) = dim_at(&t, &src.path, src.dim) else {
                    continue;
                };
                // A dimension that only unification with the pattern
                // determined says nothing about the value.
                let mut vs = vec![];
                d.vars(&mut vs);
                if vs.iter().any(|w| sz.pending.iter().any(|(_, p)| p == w)) {
                    continue;
                }
                let Some(first) = &seen else {
                    seen = Some(d);
                    continue;
                };
                if !self.inf.unify_dim(first, &d) {
                    let (a, b) = (self.show_dim(first), self.show_dim(&d));
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "The value bound cannot match the type of the pattern: size \"{name}\" would be both \"{a}\" and \"{b}\". Sizes \"{a}\" and \"{b}\" do not match."
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// An index or slice bound: any integer type. An unresolved index
    /// defaults to i32 as other integers do (as in Futhark: `def get xs i
    /// = xs[i]` takes an `i32`), a slice bound to i64.
    fn index_part(&mut self, e: &Exp, fixed: bool) -> Res<TExp> {
        let te = self.check_exp(e)?;
        let class = if fixed {
            ClassSet::INT
        } else {
            ClassSet::INDEX
        };
        let it = self.inf.fresh_class(class);
        self.inf.unify(&it, &te.ty).map_err(|_| {
            Diagnostic::error(
                e.span,
                format!(
                    "array index must be an integer, but has type '{}'",
                    self.show(&te.ty)
                ),
            )
        })?;
        Ok(te)
    }

    pub(crate) fn index(&mut self, arr: TExp, slices: &[DimIndex], span: Span) -> Res<TExp> {
        let mut out = vec![];
        for s in slices {
            out.push(match s {
                DimIndex::Fix(i) => TDimIndex::Fix(self.index_part(i, true)?),
                DimIndex::Slice { start, end, stride } => {
                    let mut part = |x: &Option<Exp>| -> Res<Option<TExp>> {
                        x.as_ref().map(|x| self.index_part(x, false)).transpose()
                    };
                    TDimIndex::Slice {
                        start: part(start)?,
                        end: part(end)?,
                        stride: part(stride)?,
                    }
                }
            });
        }
        let n = slices.len() as u32;
        let elem = self.inf.fresh();
        let dims: Vec<Dim> = slices.iter().map(|_| self.inf.fresh_dim()).collect();
        let want = Type::Array(Box::new(elem.clone()), dims.clone());
        if self.inf.unify(&want, &arr.ty).is_err() {
            let t = self.show(&arr.ty);
            let msg = if matches!(self.inf.shallow(&arr.ty), Type::Array(..)) {
                format!("cannot index a value of type '{t}' with {n} indices")
            } else {
                format!("cannot index into a value of type '{t}'")
            };
            return Err(Diagnostic::error(arr.span, msg));
        }
        // A whole dimension (`:`) keeps its size; `xs[i:j]` with stride 1
        // has `j - i` elements (`j` if `i` is 0 or absent, `n - i` if `j`
        // is absent, `n` the dimension), when `i` and `j` are sizes the
        // checker can write; other slices have unknown sizes.
        let mut kept = vec![];
        for (s, d) in out.iter().zip(dims) {
            let TDimIndex::Slice { start, end, stride } = s else {
                continue;
            };
            let unit = stride
                .as_ref()
                .is_none_or(|s| matches!(s.kind, TExpKind::Lit(Literal::Int(1))));
            let reversed = start.is_none()
                && end.is_none()
                && stride.as_ref().is_some_and(|s| {
                    matches!(&s.kind, TExpKind::Apply(f, a) if a.len() == 1
                        && matches!(f.kind, TExpKind::Intrinsic("neg", _))
                        && matches!(a[0].kind, TExpKind::Lit(Literal::Int(1))))
                        || matches!(s.kind, TExpKind::Lit(Literal::Int(-1)))
                });
            if reversed {
                kept.push(d);
                continue;
            }
            let whole = self.inf.zonk_dim(&d);
            let mut dim = |e: &Option<TExp>, absent: Dim| match e {
                None => absent,
                Some(e) if unit => self.size_of_exp(e, UnknownSource::Slice),
                Some(_) => Dim::Any,
            };
            let (i, j) = (dim(start, Dim::Const(0)), dim(end, whole));
            let size = match (&i, &j) {
                _ if !unit => Dim::Any,
                // The prelude relies on run-time checks of such sizes.
                (i, _) if self.in_prelude && *i != Dim::Const(0) => Dim::Any,
                _ if start.is_none() && end.is_none() => d,
                (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                (Dim::Const(0), _) => j,
                _ => Dim::Op(SizeOp::Sub, Box::new(j), Box::new(i)),
            };
            kept.push(match size {
                Dim::Any => self.fresh_unknown(UnknownSource::Slice, span),
                size => size,
            });
        }
        let ty = Type::array_dims(elem, kept);
        Ok(TExp::new(TExpKind::Index(Box::new(arr), out), ty, span))
    }

    /// Applies a checked function to checked arguments.
    pub(crate) fn apply_texp(
        &mut self,
        f: TExp,
        args: Vec<TExp>,
        what: &str,
        span: Span,
        call: bool,
    ) -> Res<TExp> {
        let mut fty = f.ty.clone();
        for (i, a) in args.iter().enumerate() {
            let (p, r) = match self.inf.shallow(&fty) {
                Type::Arrow(p, r) => (*p, *r),
                t @ Type::Var(_) => {
                    let (p, r) = (self.inf.fresh(), self.inf.fresh());
                    if self
                        .inf
                        .unify(&t, &Type::arrow(p.clone(), r.clone()))
                        .is_err()
                    {
                        if let Type::Var(v) = t {
                            if self.inf.needs_eq(v) {
                                return Err(Diagnostic::error(
                                    f.span,
                                    format!("Cannot apply {what} as function: its values are compared for equality, so it cannot be a function type"),
                                ));
                            }
                            if self.inf.is_unlifted(v) {
                                return Err(Diagnostic::error(
                                    f.span,
                                    format!("Cannot apply {what} as function: its type must be non-functional (as the type of an array element, loop parameter or branch result), so it cannot be a function type"),
                                ));
                            }
                        }
                        return Err(Diagnostic::error(
                            f.span,
                            format!(
                                "Cannot apply {what} as function: it has type '{}'",
                                self.show(&t)
                            ),
                        ));
                    }
                    (p, r)
                }
                t => {
                    let msg = if i == 0 {
                        format!(
                            "Cannot apply {what} as function: it has type '{}'",
                            self.show(&t)
                        )
                    } else {
                        format!(
                            "{what} is applied to {} arguments, but its type '{}' takes only {i} argument{}",
                            args.len(),
                            self.show(&f.ty),
                            if i == 1 { "" } else { "s" }
                        )
                    };
                    return Err(Diagnostic::error(a.span, msg));
                }
            };
            if let Some((g, x)) = self.size_dependent(a, &p) {
                return Err(Diagnostic::error(
                    a.span,
                    format!(
                        "Cannot apply {what} to \"{g}\": the size of its result depends on the value of its parameter \"{x}\", which a function value cannot express: the result type would be a type containing anonymous sizes."
                    ),
                )
                .with_note(format!("apply \"{g}\" in a lambda whose result has a known size instead")));
            }
            let mark = self.inf.mismatch_mark();
            self.inf.unify(&p, &a.ty).map_err(|e| {
                let mut d = self.unify_error(a.span, &p, &a.ty, e);
                if call {
                    // Futhark's wording: `Cannot apply "f" to "x" (invalid type).`
                    let unquoted = what
                        .strip_prefix(['\'', '"'])
                        .and_then(|w| w.strip_suffix(['\'', '"']));
                    let f = match unquoted {
                        Some(name) => format!("\"{name}\""),
                        None => "function".to_string(),
                    };
                    d.message = format!(
                        "Cannot apply {f} to \"{}\" (invalid type): {}",
                        self.source_excerpt(a.span),
                        d.message
                    );
                }
                let d = d.with_note(format!("in argument {} of {what}", i + 1));
                match self.defaulted_note(&f) {
                    Some(n) => d.with_note(n),
                    None => d,
                }
            })?;
            if self.inf.mismatch_since(mark).is_some() {
                let arg = match &a.kind {
                    TExpKind::Var(v, ..) => format!("\"{}\"", self.vars[v.0 as usize].name),
                    _ => format!("argument #{}", i + 1),
                };
                let lead = format!(
                    "Cannot apply {} to {arg} (invalid type).",
                    what.replace('\'', "\"")
                );
                self.sizes_agree(mark, a.span, &lead, &p, &a.ty)?;
            }
            if matches!(&a.kind, TExpKind::Apply(h, hargs) if hole_message(h, hargs).is_some()) {
                if let Some(h) = self.user_holes.iter_mut().find(|h| h.0 == a.span) {
                    h.2 = Some(format!("use as function argument {} of {what}", i + 1));
                }
            }
            if let Some(d) = self.param_dim(&f, i) {
                let ad = self.size_of_exp(a, UnknownSource::Argument(self.source_excerpt(a.span)));
                let _ = self.inf.unify_dim(&d, &ad);
            }
            fty = r;
        }
        // Each application of a function whose result has an existential
        // size (`filter`) gets a fresh unknown size.
        let fty = match self.inf.zonk(&fty) {
            Type::Arrow(..) => fty,
            // Other functions' results may leave sizes unknown that are
            // not existential (sizes the checker does not follow).
            t => match &head(&f).kind {
                TExpKind::Var(v, ..) if !self.in_prelude && self.declared_fns.contains(v) => {
                    let name = self.vars[v.0 as usize].name.clone();
                    self.existential_to_unknown(
                        &t,
                        &Type::unit(),
                        UnknownSource::Result(Some(name)),
                        span,
                    )
                }
                TExpKind::Global(id, ..) if !self.in_prelude => {
                    match self.existential_funs.get(id).cloned() {
                        Some(pattern) => {
                            let name = what
                                .strip_prefix(['\'', '"'])
                                .and_then(|w| w.strip_suffix(['\'', '"']))
                                .map(str::to_string);
                            self.existential_to_unknown(
                                &t,
                                &pattern,
                                UnknownSource::Result(name),
                                span,
                            )
                        }
                        None => fty,
                    }
                }
                _ => fty,
            },
        };
        Ok(apply(f, args, fty, span))
    }

    /// The size that the value of `e` (an `i64`) stands for: a size the
    /// checker writes (`n`, `3`, `n + 1`), or else an unknown size that
    /// every use of the same pure expression shares (`xs[f i:g j]` and
    /// `ys[f i:g j]` have the same size); `source` says where it arises.
    pub(crate) fn size_of_exp(&mut self, e: &TExp, source: UnknownSource) -> Dim {
        // A typed hole (AUTOMAP's replicate sizes among them) is whatever
        // size the context needs.
        if matches!(&e.kind, TExpKind::Apply(f, args) if hole_message(f, args).is_some()) {
            return Dim::Any;
        }
        match exp_dim(e, &|f| self.constant(f, 0)) {
            Dim::Any => match exp_key(e) {
                Some(k) if !self.in_prelude => {
                    if let Some(d) = self.exp_sizes.get(&k) {
                        return d.clone();
                    }
                    let d = self.fresh_unknown(source, e.span);
                    self.exp_sizes.insert(k, d.clone());
                    d
                }
                _ => self.fresh_unknown(source, e.span),
            },
            d => d,
        }
    }

    /// `t` (a function's result) with each unknown dimension
    /// ([`Dim::Any`]) a fresh unknown size; dimensions where the
    /// function's own result type (`pattern`) has the same unknown size
    /// get the same one (`?[k].([k]a, [k]b)`).
    fn existential_to_unknown(
        &mut self,
        t: &Type,
        pattern: &Type,
        source: UnknownSource,
        span: Span,
    ) -> Type {
        let mut made: Vec<(Dim, Dim)> = vec![];
        let mut fresh = |ck: &mut Self, p: Option<&Dim>| -> Dim {
            match p {
                Some(p @ Dim::Var(v)) if ck.inf.unknowns.contains(&v.0) => {
                    if let Some((_, u)) = made.iter().find(|(q, _)| q == p) {
                        return u.clone();
                    }
                    let u = ck.fresh_unknown(source.clone(), span);
                    made.push((p.clone(), u.clone()));
                    u
                }
                _ => ck.fresh_unknown(source.clone(), span),
            }
        };
        self.with_existentials(t, Some(pattern), &mut fresh)
    }

    fn with_existentials(
        &mut self,
        t: &Type,
        p: Option<&Type>,
        fresh: &mut dyn FnMut(&mut Self, Option<&Dim>) -> Dim,
    ) -> Type {
        match t {
            Type::Array(e, ds) => {
                let (pe, pds) = match p {
                    Some(Type::Array(pe, pds)) if pds.len() == ds.len() => (Some(&**pe), Some(pds)),
                    _ => (None, None),
                };
                let ds = ds
                    .iter()
                    .enumerate()
                    .map(|(i, d)| match d {
                        Dim::Any => fresh(self, pds.map(|pds| &pds[i])),
                        d => d.clone(),
                    })
                    .collect();
                let e = self.with_existentials(e, pe, fresh);
                Type::array_dims(e, ds)
            }
            Type::Tuple(ts) => {
                let ps = match p {
                    Some(Type::Tuple(ps)) if ps.len() == ts.len() => Some(ps),
                    _ => None,
                };
                Type::Tuple(
                    ts.iter()
                        .enumerate()
                        .map(|(i, t)| self.with_existentials(t, ps.map(|ps| &ps[i]), fresh))
                        .collect(),
                )
            }
            Type::Record(fs) => {
                let ps = match p {
                    Some(Type::Record(ps)) if ps.len() == fs.len() => Some(ps),
                    _ => None,
                };
                Type::Record(
                    fs.iter()
                        .enumerate()
                        .map(|(i, (n, t))| {
                            (
                                n.clone(),
                                self.with_existentials(t, ps.map(|ps| &ps[i].1), fresh),
                            )
                        })
                        .collect(),
                )
            }
            t => t.clone(),
        }
    }

    /// If `a` names a function whose result's size depends on the value
    /// of one of its parameters (`def g (k: i64) : [k]i64`) and is passed
    /// for a parameter `param` whose result type is an unlifted type
    /// variable (`map`'s `f: a -> x`), that function's name and the
    /// parameter's: one `x` cannot stand for results of different sizes.
    fn size_dependent(&self, a: &TExp, param: &Type) -> Option<(String, String)> {
        // A lifted or size-lifted result type admits any size.
        let mut want = self.inf.shallow(param);
        while let Type::Arrow(_, r) = want {
            want = self.inf.shallow(&r);
        }
        match want {
            Type::Var(n) if !self.lifted_vars.contains(&n) => {}
            _ => return None,
        }
        let (scheme, sinst, name) = match &a.kind {
            TExpKind::Global(id, _, s) => {
                let name = match self.funs.get(id.0 as usize) {
                    Some(f) => f.name.clone(),
                    None => self.rec_fun.as_ref()?.name.clone(),
                };
                (self.fun_sizes.get(id)?, s, name)
            }
            TExpKind::Var(v, _, s) => (
                self.local_sizes.get(v)?,
                s,
                self.vars[v.0 as usize].name.clone(),
            ),
            _ => return None,
        };
        let mut ret = self.inf.zonk(&a.ty);
        while let Type::Arrow(_, r) = ret {
            ret = *r;
        }
        for pv in scheme.params.iter().flatten() {
            let d = self.inf.zonk_dim(&sinst.iter().find(|(v, _)| v == pv)?.1);
            if !matches!(d, Dim::Infer(_)) {
                continue;
            }
            let mut hit = false;
            ret.each_dim(&mut |x| hit |= self.inf.zonk_dim(x) == d);
            if hit {
                return Some((name, self.vars[pv.0 as usize].name.clone()));
            }
        }
        None
    }

    fn unary(
        &mut self,
        intrinsic: Intrinsic,
        op: &str,
        class: ClassSet,
        e: TExp,
        span: Span,
    ) -> Res<TExp> {
        let t = match self.opened.last() {
            Some(p) if class.admits(*p) => Type::Prim(*p),
            _ => self.inf.fresh_class(class),
        };
        self.inf.unify(&t, &e.ty).map_err(|_| {
            Diagnostic::error(
                e.span,
                format!("cannot apply '{op}' to type '{}'", self.show(&e.ty)),
            )
        })?;
        let f = TExp::new(
            TExpKind::Intrinsic(intrinsic.name(), vec![t.clone()]),
            Type::arrow(t.clone(), t.clone()),
            span,
        );
        Ok(apply(f, vec![e], t, span))
    }

    /// A binary operator application and the applications in its left
    /// operand, innermost first: `x + 1 + 1 + …` is a left-deep tree as
    /// deep as the chain, so the left spine is walked with a loop rather
    /// than by recursion (the right operands are checked recursively).
    fn check_binop_chain(&mut self, e: &Exp) -> Res<TExp> {
        let mut spine = vec![];
        let mut leftmost = e;
        while let ExpKind::BinOp(op, a, b) = &leftmost.kind {
            spine.push((op, &**b, leftmost.span));
            leftmost = a;
        }
        let mut acc = self.check_exp(leftmost)?;
        for (op, b, span) in spine.into_iter().rev() {
            acc = self.check_binop(op, acc, b, span)?;
        }
        Ok(acc)
    }

    /// `ta op b`, the left operand already checked.
    fn check_binop(&mut self, op: &QualName, ta: TExp, b: &Exp, span: Span) -> Res<TExp> {
        let name = op.name.as_str();
        let user_defined = op.quals.is_empty()
            && (self.opened_val(name).is_some()
                || ((self.lookup(name).is_some() || self.globals.contains_key(name))
                    && self.opened.is_empty()));
        if op.quals.is_empty() && !user_defined && (name == "&&" || name == "||") {
            self.expect_bool(&ta, &format!("operand of '{name}'"))?;
            let tb = self.check_exp(b)?;
            self.expect_bool(&tb, &format!("operand of '{name}'"))?;
            let (t, f) = if name == "&&" {
                (tb, lit(Literal::Bool(false), Type::bool(), span))
            } else {
                (lit(Literal::Bool(true), Type::bool(), span), tb)
            };
            return Ok(TExp::new(
                TExpKind::If(Box::new(ta), Box::new(t), Box::new(f)),
                Type::bool(),
                span,
            ));
        }
        if let (true, false, Some(bop)) = (op.quals.is_empty(), user_defined, builtin_op(name)) {
            let tb = self.check_exp(b)?;
            let t = match self.opened.last() {
                Some(p) if bop.class.admits(*p) => Type::Prim(*p),
                _ => self.inf.fresh_class(bop.class),
            };
            for (k, x) in [&ta, &tb].into_iter().enumerate() {
                if let Err(e) = self.inf.unify(&t, &x.ty) {
                    return Err(match e {
                        UnifyError::Class(..) if self.is_sum(&x.ty) => Diagnostic::error(
                            x.span,
                            format!(
                                "cannot apply '{name}' to a value of sum type '{}'",
                                self.show(&x.ty)
                            ),
                        ),
                        UnifyError::Class(..) => {
                            let d = Diagnostic::error(
                                x.span,
                                format!(
                                    "cannot apply \"{name}\" to the operand at {}, of type '{}'",
                                    self.loc_text(x.span),
                                    self.show(&x.ty)
                                ),
                            );
                            if k == 1 {
                                d.with_note(format!(
                                    "the other operand has type '{}'",
                                    self.show(&ta.ty)
                                ))
                            } else {
                                d
                            }
                        }
                        _ => Diagnostic::error(
                            x.span,
                            format!(
                                "cannot unify '{}' with '{}'",
                                self.show(&t),
                                self.show(&x.ty)
                            ),
                        )
                        .with_note(format!("both operands of '{name}' must have the same type")),
                    });
                }
            }
            // `==` and `!=` compare values of any type that supports
            // equality: no functions, no type parameters.
            if bop.class.is_any() && self.inf.require_eq(&t).is_err() {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "cannot apply \"{name}\": type '{}' does not support equality",
                        self.show(&t)
                    ),
                ));
            }
            let rt = if bop.returns_bool {
                Type::bool()
            } else {
                t.clone()
            };
            let fty = Type::arrows(vec![t.clone(), t.clone()], rt.clone());
            let f = TExp::new(
                TExpKind::Intrinsic(bop.intrinsic.name(), vec![t]),
                fty,
                op.span,
            );
            return Ok(apply(f, vec![ta, tb], rt, span));
        }
        let f = self.op_fn(op)?;
        let tb = self.check_exp(b)?;
        self.apply_texp(f, vec![ta, tb], &format!("'{}'", op.full()), span, false)
    }

    /// `match scrut case p1 -> e1 …`: every pattern against the
    /// scrutinee's type, every case of one result type.
    fn check_match(&mut self, scrut: &Exp, cases: &[(Pat, Exp)], span: Span) -> Res<TExp> {
        let ts = self.check_exp(scrut)?;
        let rt = self.inf.fresh();
        let mut out = vec![];
        for (p, e) in cases {
            let mark = self.scope.len();
            let r = (|| {
                let mut binds = vec![];
                let tp = self.check_pat(p, &ts.ty, None, &mut Sizes::default(), &mut binds)?;
                self.bind_all(binds);
                let te = self.check_exp(e)?;
                self.inf.unify(&rt, &te.ty).map_err(|_| {
                    Diagnostic::error(
                        e.span,
                        format!(
                            "cases of 'match' have different types: '{}' and '{}'",
                            self.show(&rt),
                            self.show(&te.ty)
                        ),
                    )
                })?;
                Ok((tp, te))
            })();
            self.scope.truncate(mark);
            out.push(r?);
        }
        if self.inf.require_unlifted(&rt).is_err() {
            return Err(no_function(
                span,
                "the result of a 'match'",
                &self.show(&rt),
            ));
        }
        // A size the cases disagree on is unknown.
        let mut ty = self.inf.zonk(&rt);
        if let Some((_, first)) = out.first() {
            ty = self.inf.zonk(&first.ty);
            for (_, e) in &out[1..] {
                let b = self.inf.zonk(&e.ty);
                let source = UnknownSource::Branches(self.show_sized(&ty), self.show_sized(&b));
                ty = merge_dims(&ty, &b, &mut || self.fresh_unknown(source.clone(), span));
            }
        }
        Ok(TExp::new(TExpKind::Match(Box::new(ts), out), ty, span))
    }

    fn is_sum(&self, t: &Type) -> bool {
        match self.inf.shallow(t) {
            Type::Sum(_) => true,
            Type::Var(v) => self.inf.has_constrs(v),
            _ => false,
        }
    }

    /// An operator as a function value: `(+)`, `(f32.*)`, `(|>)`.
    pub(crate) fn op_fn(&mut self, op: &QualName) -> Res<TExp> {
        let span = op.span;
        let name = op.name.as_str();
        if !op.quals.is_empty() {
            return self.check_var(op);
        }
        if self.opened_val(name).is_some()
            || (self.opened.is_empty()
                && (self.lookup(name).is_some() || self.globals.contains_key(name)))
        {
            return self.check_name(name, span);
        }
        if name == "&&" || name == "||" {
            let bt = Type::bool();
            let x = self.new_var("x", bt.clone(), span);
            let y = self.new_var("y", bt.clone(), span);
            let (vx, vy) = (var_exp(x, bt.clone(), span), var_exp(y, bt.clone(), span));
            let body = if name == "&&" {
                TExpKind::If(
                    Box::new(vx),
                    Box::new(vy),
                    Box::new(lit(Literal::Bool(false), bt.clone(), span)),
                )
            } else {
                TExpKind::If(
                    Box::new(vx),
                    Box::new(lit(Literal::Bool(true), bt.clone(), span)),
                    Box::new(vy),
                )
            };
            let body = TExp::new(body, bt.clone(), span);
            let ty = Type::arrows(vec![bt.clone(), bt.clone()], bt.clone());
            let params = vec![TPat::Var(x, bt.clone(), span), TPat::Var(y, bt, span)];
            return Ok(TExp::new(
                TExpKind::Lambda(params, Box::new(body)),
                ty,
                span,
            ));
        }
        if let Some(bop) = builtin_op(name) {
            let t = match self.opened.last() {
                Some(p) if bop.class.admits(*p) => Type::Prim(*p),
                _ => self.inf.fresh_class(bop.class),
            };
            let rt = if bop.returns_bool {
                Type::bool()
            } else {
                t.clone()
            };
            let ty = Type::arrows(vec![t.clone(), t.clone()], rt);
            return Ok(TExp::new(
                TExpKind::Intrinsic(bop.intrinsic.name(), vec![t]),
                ty,
                span,
            ));
        }
        self.check_name(name, span)
    }

    fn check_lambda(
        &mut self,
        params: &[Pat],
        ret: Option<&parad_syntax::ast::TypeExp>,
        body: &Exp,
        span: Span,
    ) -> Res<TExp> {
        let mut names = vec![];
        params.iter().for_each(|p| pat_names(p, &mut names));
        check_distinct(&names)?;
        let mut tparams = vec![];
        let mut sizes = Sizes::default();
        for p in params {
            let t = self.inf.fresh();
            let mut binds = vec![];
            tparams.push(self.check_pat(p, &t, None, &mut sizes, &mut binds)?);
            self.bind_all(binds);
        }
        self.note_declared_fns(params, &tparams);
        let rt = match ret {
            Some(te) => Some(self.type_exp(te)?),
            None => None,
        };
        let mut tbody = self.check_exp(body)?;
        if let Some(rt) = &rt {
            self.unify_at(body.span, rt, &tbody.ty)?;
            tbody = self.coerce_to(tbody, Some(rt.clone()));
        }
        let tbody = self.check_params(&sizes, tbody);
        if let Some(te) = ret {
            self.lambda_ret
                .insert(span, crate::unique::UShape::of_type(te));
        }
        // A size of the result named by a variable inside a parameter's
        // pattern (`\(_, i, k) -> s[i:i + k]`) is unknown outside: only a
        // whole parameter (`\n -> iota n`) can be named by the type.
        let mut inner = vec![];
        for p in &tparams {
            if !matches!(p, TPat::Var(..)) {
                p.vars(&mut inner);
            }
        }
        let mut rty = self.inf.zonk(&tbody.ty);
        if !inner.is_empty() {
            let mut named = vec![];
            rty.each_dim(&mut |d| d.vars(&mut named));
            let mut lost: Vec<(VarId, Dim)> = vec![];
            for v in named {
                if inner.contains(&v) && !lost.iter().any(|(w, _)| *w == v) {
                    let name = self.vars[v.0 as usize].name.clone();
                    lost.push((v, self.fresh_unknown(UnknownSource::OutOfScope(name), span)));
                }
            }
            if !lost.is_empty() {
                rty = rty.map_dims(&|d| {
                    out_of_scope(d, &|v| {
                        lost.iter().find(|(w, _)| *w == v).map(|(_, u)| u.clone())
                    })
                });
            }
        }
        let ty = Type::arrows(tparams.iter().map(|p| p.ty()).collect(), rty);
        Ok(TExp::new(
            TExpKind::Lambda(tparams, Box::new(tbody)),
            ty,
            span,
        ))
    }

    /// Notes the parameters declared with a function type (`(f: (n: i64)
    /// -> []i32)`): the unknown sizes of their results are existential.
    fn note_declared_fns(&mut self, params: &[Pat], tparams: &[TPat]) {
        // A named parameter (`(n: i64) -> [n]i32`) makes the result's size
        // depend on the argument, which function types here do not keep:
        // such results stay as they are.
        fn named(t: &parad_syntax::ast::TypeExp) -> bool {
            match t {
                parad_syntax::ast::TypeExp::Arrow(name, a, b, _) => {
                    name.is_some() || named(a) || named(b)
                }
                _ => false,
            }
        }
        for (p, tp) in params.iter().zip(tparams) {
            if let (
                Pat::Ascribe(_, te @ parad_syntax::ast::TypeExp::Arrow(..), _),
                TPat::Var(v, ..),
            ) = (p, tp)
            {
                if !named(te) {
                    self.declared_fns.insert(*v);
                }
            }
        }
    }

    /// `e` checked at run time to have the known dimensions of `shape`
    /// (declared sizes are never ignored; the prelude's hold statically).
    pub(crate) fn coerce_to(&mut self, e: TExp, shape: Option<Type>) -> TExp {
        let Some(shape) = shape.filter(|_| !self.in_prelude) else {
            return e;
        };
        let shape = self.inf.zonk(&shape).map_dims(&|d| match d {
            Dim::Infer(_) | Dim::AbbrevParam(_) => Dim::Any,
            d => d.clone(),
        });
        let mut known = false;
        shape.each_dim(&mut |d| known |= *d != Dim::Any);
        if !known {
            return e;
        }
        let span = e.span;
        TExp::new(TExpKind::Coerce(Box::new(e)), shape, span)
    }

    /// `body` preceded by the checks that parameters have their declared
    /// sizes ([`Sizes::check`]).
    fn check_params(&mut self, sizes: &Sizes, mut body: TExp) -> TExp {
        for (v, shape) in sizes.checks.iter().rev() {
            let info = &self.vars[v.0 as usize];
            let (ty, span) = (info.ty.clone(), info.span);
            let x = self.coerce_to(var_exp(*v, ty.clone(), span), Some(shape.clone()));
            if !matches!(x.kind, TExpKind::Coerce(_)) {
                continue;
            }
            let bty = body.ty.clone();
            let bspan = body.span;
            body = TExp::new(
                TExpKind::Let {
                    sizes: vec![],
                    pat: TPat::Wildcard(ty, span),
                    rhs: Box::new(x),
                    body: Box::new(body),
                },
                bty,
                bspan,
            );
        }
        body
    }

    /// Checks a local function and generalises its type.
    fn check_local_fun(
        &mut self,
        name: &Ident,
        type_params: &[TypeParam],
        params: &[Pat],
        ret: Option<&parad_syntax::ast::TypeExp>,
        rhs: &Exp,
    ) -> Res<TLocalFun> {
        let (smark, tmark) = (self.scope.len(), self.types.len());
        let (var_mark, dim_mark) = (self.vars.len() as u32, self.inf.dim_mark());
        self.inf.level += 1;
        let r = self.check_fun_parts(type_params, params, ret, rhs);
        self.inf.level -= 1;
        self.scope.truncate(smark);
        self.types.truncate(tmark);
        let parts = r?;
        // A type parameter of the local function exists only inside it: a
        // variable bound outside whose type became it would escape.
        for (outer, local) in &self.scope {
            let t = self.inf.zonk(&local.ty);
            if let Some(p) = parts
                .type_params
                .iter()
                .find(|p| mentions_param(&self.inf, &t, **p))
            {
                let pname = self.tparam_names[p.0 as usize].clone();
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "The type of \"{outer}\", bound outside local function \"{}\", would be its type parameter \"{pname}\", which only exists inside it [scope-violation].",
                        name.name
                    ),
                ));
            }
        }
        // Nor may a size bound inside it become part of such a type
        // (`match x case #ys (ys: [n]i32)` with `n` a parameter).
        for (outer, local) in &self.scope {
            let t = self.inf.zonk(&local.ty);
            let mut sizes = vec![];
            dims_in(&self.inf, &t, &mut sizes);
            let inner = sizes.into_iter().find(|v| {
                v.0 >= var_mark
                    && (v.0 as usize) < self.vars.len()
                    && !self.inf.unknowns.contains(&v.0)
            });
            if let Some(v) = inner {
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "The type of \"{outer}\", bound outside local function \"{}\", would have the size \"{}\", which is bound inside it [scope-violation].",
                        name.name, self.vars[v.0 as usize].name
                    ),
                ));
            }
        }
        let fty = Type::arrows(
            parts.params.iter().map(|p| p.ty()).collect(),
            parts.ret.clone(),
        );
        let tps = parts.type_params;
        // Futhark does not generalise local functions: their types are
        // fixed by their uses, except for explicit type parameters.
        // Sizes the function's body left open stay unknown; sizes of the
        // function's own parameters are instantiated at each use.
        self.inf.close_dims(dim_mark);
        let (scheme, fty) =
            self.size_scheme(&parts.size_params, &parts.params, &fty, |v| v.0 < var_mark);
        let var = self.new_var(&name.name, fty, name.span);
        if !scheme.vars.is_empty() {
            self.local_sizes.insert(var, scheme);
        }
        Ok(TLocalFun {
            var,
            type_params: tps,
            size_params: parts.size_params,
            size_sources: parts.size_sources,
            params: parts.params,
            ret: parts.ret,
            body: parts.body,
        })
    }

    /// Turns the unconstrained variables of `t` above `level` into fresh
    /// type parameters.
    pub(crate) fn generalise(&mut self, t: &Type, level: u32) -> Vec<TypeParamId> {
        let mut fv = vec![];
        self.inf.free_vars(t, &mut fv);
        // Types of required fields stay monomorphic with their record.
        let mut blocked = vec![];
        for v in &fv {
            for (_, ft) in self.inf.fields_of(*v) {
                self.inf.free_vars(&ft, &mut blocked);
            }
            for (_, ts) in self.inf.constrs_of(*v) {
                ts.iter().for_each(|t| self.inf.free_vars(t, &mut blocked));
            }
        }
        let mut out = vec![];
        for v in fv {
            if self.inf.level_of(v) > level
                && self.inf.class_of(v).is_any()
                && !self.inf.has_fields(v)
                && !self.inf.has_constrs(v)
                && !blocked.contains(&v)
                && !self.inf.needs_eq(v)
            {
                let name = format!("t{}", out.len());
                let p = self.new_tparam(&name);
                if !self.inf.is_unlifted(v) {
                    self.inf.lifted.insert(p);
                }
                self.inf.set(v, Type::Param(p));
                out.push(p);
            }
        }
        out
    }

    /// Binds a function's type parameters, size parameters and parameters
    /// in scope, and gives their types and the declared (or a fresh) result
    /// type. The caller restores scopes.
    pub(crate) fn fun_header(
        &mut self,
        type_params: &[TypeParam],
        params: &[Pat],
        ret: Option<&parad_syntax::ast::TypeExp>,
    ) -> Res<FunHeader> {
        let mut tnames = vec![];
        let mut vnames = vec![];
        for tp in type_params {
            match tp {
                TypeParam::Type(id, _) => tnames.push((id.name.clone(), id.span)),
                TypeParam::Size(id) => vnames.push((id.name.clone(), id.span)),
            }
        }
        params.iter().for_each(|p| pat_names(p, &mut vnames));
        check_distinct(&tnames)?;
        check_distinct(&vnames)?;
        let mut tps = vec![];
        let mut sizes = Sizes::default();
        let mut size_params = vec![];
        for tp in type_params {
            match tp {
                TypeParam::Type(id, l) => {
                    let p = self.new_tparam(&id.name);
                    if *l != Liftedness::Unlifted {
                        self.lifted_tparams.insert(p);
                    }
                    match l {
                        Liftedness::Lifted => {
                            self.inf.lifted.insert(p);
                        }
                        Liftedness::SizeLifted => {
                            self.inf.size_lifted.insert(p);
                        }
                        Liftedness::Unlifted => {}
                    }
                    tps.push(p);
                    self.types
                        .push((id.name.clone(), TypeName::Type(Type::Param(p))));
                }
                TypeParam::Size(id) => {
                    let v = self.new_var(&id.name, Type::i64(), id.span);
                    size_params.push(v);
                    sizes.pending.push((id.name.clone(), v));
                    self.bind(&id.name, v, Type::i64());
                }
            }
        }
        let mut tparams = vec![];
        sizes.implicit = !self.in_prelude;
        for p in params {
            let t = self.inf.fresh();
            let mut binds = vec![];
            tparams.push(self.check_pat(p, &t, None, &mut sizes, &mut binds)?);
            self.bind_all(binds);
        }
        sizes.implicit = false;
        self.note_declared_fns(params, &tparams);
        let rt = match ret {
            Some(te) => {
                // An unknown size in the result type (`[]`) is a size
                // variable: one size however often an abbreviation repeats
                // it (`square []`), which the body must give consistently.
                self.ret_pattern = None;
                self.in_ret_type = true;
                let t = self.param_type_exp(te);
                self.in_ret_type = false;
                let t = t?;
                // Only a whole parameter (`(n: i64)`) is known to the
                // function's type; a name inside a parameter's pattern is
                // not (`(n: i64, _: bool)`).
                let mut inner = vec![];
                for p in &tparams {
                    if !matches!(p, TPat::Var(..)) {
                        p.vars(&mut inner);
                    }
                }
                let mut named = vec![];
                t.each_dim(&mut |d| d.vars(&mut named));
                if let Some(v) = named.iter().find(|v| inner.contains(v)) {
                    let name = &self.vars[v.0 as usize].name;
                    return Err(Diagnostic::error(
                        te.span(),
                        format!(
                            "The result type uses \"{name}\" as a size, but \"{name}\" is bound inside a parameter's pattern; only a whole parameter, such as ({name}: i64), may be a size in the result type."
                        ),
                    ));
                }
                t
            }
            None => self.inf.fresh(),
        };
        Ok(FunHeader {
            tps,
            sizes,
            size_params,
            tparams,
            rt,
        })
    }

    /// Type parameters, size parameters, parameters, return type and body
    /// of a function (local or top-level). The caller restores scopes.
    pub(crate) fn check_fun_parts(
        &mut self,
        type_params: &[TypeParam],
        params: &[Pat],
        ret: Option<&parad_syntax::ast::TypeExp>,
        rhs: &Exp,
    ) -> Res<FunParts> {
        let FunHeader {
            tps,
            sizes,
            size_params,
            tparams,
            rt,
        } = self.fun_header(type_params, params, ret)?;
        let ret_pattern = self.ret_pattern.take();
        if let Some((name, id)) = self.rec_pending.take() {
            let fty = Type::arrows(tparams.iter().map(|p| p.ty()).collect(), rt.clone());
            let (scheme, fty) = self.size_scheme(&size_params, &tparams, &fty, |_| false);
            let sizes = (!scheme.vars.is_empty()).then_some(scheme);
            if let Some(s) = &sizes {
                self.fun_sizes.insert(id, s.clone());
            }
            self.rec_fun = Some(crate::env::RecFun {
                name,
                id,
                type_params: tps.clone(),
                ty: fty,
                sizes,
                used: false,
            });
        }
        let body = self.check_exp(rhs)?;
        let mark = self.inf.mismatch_mark();
        self.inf.unify(&rt, &body.ty).map_err(|e| {
            let d = self.unify_error(rhs.span, &rt, &body.ty, e);
            Diagnostic {
                message: format!("Function body does not have expected type: {}", d.message),
                ..d
            }
        })?;
        self.sizes_agree(
            mark,
            rhs.span,
            "Function body does not have expected type.",
            &rt,
            &body.ty,
        )?;
        let body = match ret {
            Some(_) => self.coerce_to(body, Some(rt.clone())),
            None => body,
        };
        let body = self.check_params(&sizes, body);
        Ok(FunParts {
            ret_pattern,
            type_params: tps,
            size_params,
            size_sources: sizes.found,
            params: tparams,
            ret: rt,
            body,
        })
    }

    fn check_loop(
        &mut self,
        sizes: &[Ident],
        pat: &Pat,
        init: Option<&Exp>,
        form: &LoopForm,
        body: &Exp,
        span: Span,
    ) -> Res<TExp> {
        let tinit = match init {
            Some(e) => self.check_exp(e)?,
            None => self.pat_as_exp(pat)?,
        };
        let mark = self.scope.len();
        let loop_vars = self.inf.var_count;
        let r = (|| {
            // The loop bound or array is evaluated before the loop.
            let pre = match form {
                LoopForm::For(_, bound) => Some(self.check_exp(bound)?),
                LoopForm::ForIn(_, xs) => Some(self.check_exp(xs)?),
                LoopForm::While(_) => None,
            };
            let mut sz = Sizes::default();
            for s in sizes {
                let v = self.new_var(&s.name, Type::i64(), s.span);
                sz.pending.push((s.name.clone(), v));
                self.bind(&s.name, v, Type::i64());
            }
            let t = self.inf.fresh();
            let mut binds = vec![];
            let tpat = self.check_pat(pat, &t, None, &mut sz, &mut binds)?;
            // Sizes of loop parameters may change from one iteration to the
            // next: each is a fresh size variable, fixed to the initial
            // value's size after the body if the body keeps it.
            let mut fresh = vec![];
            let init_ty = self.inf.zonk(&tinit.ty);
            if self.inf.require_unlifted(&init_ty).is_err() {
                return Err(no_function(
                    tinit.span,
                    "a loop parameter",
                    &self.show(&init_ty),
                ));
            }
            let _ = self.inf.require_unlifted(&t);
            let param_ty = self.fresh_dims(&init_ty, &mut fresh);
            self.unify_at(tinit.span, &t, &param_ty)?;
            self.bind_all(binds);
            let tform = match (form, pre) {
                (LoopForm::For(i, _), Some(tb)) => {
                    // Any integer type; an unconstrained bound defaults to
                    // i32 like any integer, as in Futhark.
                    let it = self.inf.fresh_class(ClassSet::INT);
                    self.inf.unify(&it, &tb.ty).map_err(|_| {
                        Diagnostic::error(
                            tb.span,
                            format!(
                                "loop bound must be an integer, but has type '{}'",
                                self.show(&tb.ty)
                            ),
                        )
                    })?;
                    let iv = self.new_var(&i.name, it.clone(), i.span);
                    self.bind(&i.name, iv, it);
                    TLoopForm::For(iv, Box::new(tb))
                }
                (LoopForm::ForIn(p, _), Some(txs)) => {
                    let elem = self.inf.fresh();
                    self.inf
                        .unify(&Type::array(elem.clone(), 1), &txs.ty)
                        .map_err(|_| {
                            Diagnostic::error(
                                txs.span,
                                format!(
                                    "'for ... in' needs an array, but this has type '{}'",
                                    self.show(&txs.ty)
                                ),
                            )
                        })?;
                    let mut binds = vec![];
                    let tp = self.check_pat(p, &elem, None, &mut Sizes::default(), &mut binds)?;
                    self.bind_all(binds);
                    TLoopForm::ForIn(tp, Box::new(txs))
                }
                (LoopForm::While(c), _) => {
                    let tc = self.check_exp(c)?;
                    self.expect_bool(&tc, "condition of 'while'")?;
                    TLoopForm::While(Box::new(tc))
                }
                _ => unreachable!("loop form checked above"),
            };
            let tbody = self.check_exp(body)?;
            let body_ty = self.anon_dims(&tbody.ty);
            self.inf.unify(&t, &body_ty).map_err(|_| {
                Diagnostic::error(
                    body.span,
                    format!(
                        "loop body has type '{}', but the loop parameter has type '{}'",
                        self.show(&tbody.ty),
                        self.show(&t)
                    ),
                )
            })?;
            let body_z = self.inf.zonk(&tbody.ty);
            let mut pairs = vec![];
            pair_dims(&param_ty, &body_z, &mut pairs);
            // A size the body keeps is the initial value's; one it changes
            // is unknown (a fresh one each iteration). A size the body
            // itself fixed (to a size from outside the loop) must be kept.
            let mark = self.inf.mismatch_mark();
            // The body may have tied parameters' sizes together, or to a
            // size from outside: the initial value must then have them.
            let mut init_clash = false;
            let mut tied: Vec<(Dim, Dim)> = vec![];
            for (p, init) in &fresh {
                let (pz, iz) = (self.inf.zonk_dim(p), self.inf.zonk_dim(init));
                if let Dim::Var(v) = &pz {
                    if self.inf.unknowns.contains(&v.0) && v.0 >= loop_vars {
                        return Err(Diagnostic::error(
                            body.span,
                            format!(
                                "Inferred type for loop parameter is '{}', but \"{}\" is an existential size created inside the loop body at {}.",
                                self.show_sized(&t),
                                self.vars[v.0 as usize].name,
                                self.loc_text(self.vars[v.0 as usize].span)
                            ),
                        ));
                    }
                }
                match tied.iter().find(|(q, _)| *q == pz) {
                    Some((_, other))
                        if other != &iz
                            && crate::unify::rigid(other)
                            && crate::unify::rigid(&iz) =>
                    {
                        let other = other.clone();
                        init_clash |= !self.inf.unify_dim_noting(&other, &iz);
                    }
                    Some(_) => {}
                    None if crate::unify::rigid(&pz) && crate::unify::rigid(&iz) && pz != iz => {
                        init_clash |= !self.inf.unify_dim_noting(&pz, &iz);
                    }
                    None => tied.push((pz, iz)),
                }
            }
            if init_clash {
                let lead = "Initial loop values do not have expected type.";
                self.sizes_agree(mark, tinit.span, lead, &t, &tinit.ty)?;
            }
            for (p, bd) in pairs {
                let Some((_, init)) = fresh.iter().find(|(q, _)| *q == p) else {
                    continue;
                };
                let (pz, bz) = (self.inf.zonk_dim(&p), self.inf.zonk_dim(&bd));
                if pz == bz || (matches!(pz, Dim::Infer(_)) && bz == self.inf.zonk_dim(init)) {
                    init_clash |= !self.inf.unify_dim_noting(init, &p);
                } else if matches!(pz, Dim::Infer(_)) {
                    let u = self.fresh_unknown(UnknownSource::Loop, body.span);
                    let _ = self.inf.unify_dim(&p, &u);
                } else {
                    let _ = self.inf.unify_dim_noting(&p, &bd);
                }
            }
            if init_clash {
                let lead = "Initial loop values do not have expected type.";
                self.sizes_agree(mark, tinit.span, lead, &t, &tinit.ty)?;
            }
            let lead = "Loop body does not have expected type.";
            self.sizes_agree(mark, body.span, lead, &t, &tbody.ty)?;
            // The loop's value has the parameters' type, their changing
            // sizes unknown.
            let loop_ty = self.inf.zonk(&t);
            // Declared sizes of the parameters hold for the initial value
            // and for each iteration's result.
            let shape = sz.declared_shape(&tpat);
            if let Some(shape) = &shape {
                let mark = self.inf.mismatch_mark();
                let lead = "Initial loop values do not have expected type.";
                let _ = self.inf.unify(shape, &tinit.ty);
                self.sizes_agree(mark, tinit.span, lead, shape, &tinit.ty)?;
                let _ = self.inf.unify(shape, &tbody.ty);
                let lead = "Loop body does not have expected type.";
                self.sizes_agree(mark, body.span, lead, shape, &tbody.ty)?;
            }
            let tinit = self.coerce_to(tinit, shape.clone());
            let tbody = self.coerce_to(tbody, shape);
            Ok(TExp::new(
                TExpKind::Loop {
                    pat: tpat,
                    init: Box::new(tinit),
                    form: tform,
                    body: Box::new(tbody),
                    attrs: vec![],
                },
                loop_ty,
                span,
            ))
        })();
        self.scope.truncate(mark);
        r
    }

    /// `loop (x, y) for …`: the pattern's variables are their own initial
    /// values.
    fn pat_as_exp(&mut self, p: &Pat) -> Res<TExp> {
        match p {
            Pat::Id(id) => self.check_name(&id.name, id.span),
            Pat::Tuple(ps, span) => {
                if ps.len() == 1 {
                    return self.pat_as_exp(&ps[0]);
                }
                let es = ps
                    .iter()
                    .map(|p| self.pat_as_exp(p))
                    .collect::<Res<Vec<_>>>()?;
                let ty = Type::Tuple(es.iter().map(|e| e.ty.clone()).collect());
                Ok(TExp::new(TExpKind::Tuple(es), ty, *span))
            }
            Pat::Ascribe(p, _, _) | Pat::Attr(_, p, _) => self.pat_as_exp(p),
            Pat::Record(fs, span) => {
                let mut out = vec![];
                for (n, p) in fs {
                    let e = match p {
                        Some(p) => self.pat_as_exp(p)?,
                        None => self.check_name(&n.name, n.span)?,
                    };
                    out.push((n.name.clone(), e));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                let ty = Type::Record(out.iter().map(|(n, e)| (n.clone(), e.ty.clone())).collect());
                Ok(TExp::new(TExpKind::Record(out), ty, *span))
            }
            _ => Err(Diagnostic::error(
                p.span(),
                "a loop without an initial value needs a pattern of variables",
            )),
        }
    }
}

/// Whether the types written in pattern `p` mention the name `n`.
fn mentions(p: &Pat, n: &str) -> bool {
    let mut found = false;
    parad_syntax::visit::walk_pat_mut(&mut p.clone(), &mut |e| {
        if let ExpKind::Var(q) = &e.kind {
            found |= q.quals.is_empty() && q.name == n;
        }
    });
    found
}

/// `d` with the variables that `gone` maps replaced; a size that would
/// mention an unknown one is unknown.
fn out_of_scope(d: &Dim, gone: &impl Fn(VarId) -> Option<Dim>) -> Dim {
    match d {
        Dim::Var(v) => gone(*v).unwrap_or(Dim::Var(*v)),
        Dim::Op(o, a, b) => match (out_of_scope(a, gone), out_of_scope(b, gone)) {
            (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
            (a, b) => Dim::Op(*o, Box::new(a), Box::new(b)),
        },
        d => d.clone(),
    }
}

/// `a` (of the same type as `b` up to sizes) with the dimensions where
/// `b` differs made unknown.
fn merge_dims(a: &Type, b: &Type, unknown: &mut dyn FnMut() -> Dim) -> Type {
    let mut made: Vec<((Dim, Dim), Dim)> = vec![];
    merge_dims_in(a, b, &mut |x, y| {
        if let Some((_, u)) = made.iter().find(|(p, _)| p.0 == *x && p.1 == *y) {
            return u.clone();
        }
        let u = unknown();
        made.push(((x.clone(), y.clone()), u.clone()));
        u
    })
}

/// [`merge_dims`], `unknown` giving the size where `a` has one size and
/// `b` another.
fn merge_dims_in(a: &Type, b: &Type, unknown: &mut dyn FnMut(&Dim, &Dim) -> Dim) -> Type {
    match (a, b) {
        (Type::Array(ea, da), Type::Array(eb, db)) if da.len() == db.len() => {
            let ds = da
                .iter()
                .zip(db)
                .map(|(x, y)| match (x, y) {
                    _ if x == y => x.clone(),
                    (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                    _ => unknown(x, y),
                })
                .collect();
            Type::array_dims(merge_dims_in(ea, eb, unknown), ds)
        }
        (Type::Array(..), _) | (_, Type::Array(..)) => a.map_dims(&|_| Dim::Any),
        (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => Type::Tuple(
            xs.iter()
                .zip(ys)
                .map(|(x, y)| merge_dims_in(x, y, unknown))
                .collect(),
        ),
        (Type::Record(xs), Type::Record(ys)) if xs.len() == ys.len() => Type::Record(
            xs.iter()
                .zip(ys)
                .map(|((n, x), (_, y))| (n.clone(), merge_dims_in(x, y, unknown)))
                .collect(),
        ),
        (Type::Sum(xs), Type::Sum(ys)) if xs.len() == ys.len() => Type::Sum(
            xs.iter()
                .zip(ys)
                .map(|((n, x), (_, y))| {
                    (
                        n.clone(),
                        x.iter()
                            .zip(y)
                            .map(|(x, y)| merge_dims_in(x, y, unknown))
                            .collect(),
                    )
                })
                .collect(),
        ),
        _ => a.clone(),
    }
}

/// The dimensions at the same positions of two types of the same shape.
fn pair_dims(a: &Type, b: &Type, out: &mut Vec<(Dim, Dim)>) {
    match (a, b) {
        (Type::Array(ea, da), Type::Array(eb, db)) if da.len() == db.len() => {
            out.extend(da.iter().cloned().zip(db.iter().cloned()));
            pair_dims(ea, eb, out);
        }
        (Type::Tuple(xs), Type::Tuple(ys)) => {
            xs.iter().zip(ys).for_each(|(x, y)| pair_dims(x, y, out));
        }
        (Type::Record(xs), Type::Record(ys)) => {
            xs.iter()
                .zip(ys)
                .for_each(|((_, x), (_, y))| pair_dims(x, y, out));
        }
        _ => {}
    }
}

impl Checker {
    /// A copy of `t` (zonked) with a fresh size variable for every
    /// dimension; `out` receives each with the dimension it replaces.
    fn fresh_dims(&mut self, t: &Type, out: &mut Vec<(Dim, Dim)>) -> Type {
        match t {
            Type::Array(e, ds) => {
                let ds: Vec<Dim> = ds
                    .iter()
                    .map(|d| {
                        let f = self.inf.fresh_dim();
                        out.push((f.clone(), d.clone()));
                        f
                    })
                    .collect();
                let e = self.fresh_dims(e, out);
                Type::array_dims(e, ds)
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.fresh_dims(t, out)).collect()),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.fresh_dims(t, out)))
                    .collect(),
            ),
            t => t.clone(),
        }
    }

    /// `t` with every dimension unknown.
    fn anon_dims(&self, t: &Type) -> Type {
        self.inf.zonk(t).map_dims(&|_| Dim::Any)
    }

    /// The size scheme of a function with size parameters `size_params`,
    /// parameters `params` and type `fty`, and `fty` with every dimension
    /// that names a variable out of scope at the function's uses made
    /// unknown (`outer` tells which variables are in scope around it).
    pub(crate) fn size_scheme(
        &self,
        size_params: &[VarId],
        params: &[TPat],
        fty: &Type,
        outer: impl Fn(VarId) -> bool,
    ) -> (SizeScheme, Type) {
        let top: Vec<Option<VarId>> = params
            .iter()
            .map(|p| match p {
                TPat::Var(v, _, _) => Some(*v),
                _ => None,
            })
            .collect();
        let ok = |v: VarId| outer(v) || size_params.contains(&v) || top.contains(&Some(v));
        let fty = self.inf.zonk(fty).map_dims(&|d| {
            let mut vs = vec![];
            d.vars(&mut vs);
            if vs.into_iter().all(ok) {
                d.clone()
            } else {
                Dim::Any
            }
        });
        let mut used = vec![];
        fty.each_dim(&mut |d| d.vars(&mut used));
        let mut vars = size_params.to_vec();
        let params: Vec<Option<VarId>> = top
            .into_iter()
            .map(|p| p.filter(|v| used.contains(v) && !vars.contains(v)))
            .collect();
        vars.extend(params.iter().flatten());
        (SizeScheme { vars, params }, fty)
    }
}

/// A function's parameters bound in scope ([`Checker::fun_header`]).
pub(crate) struct FunHeader {
    pub tps: Vec<TypeParamId>,
    pub sizes: Sizes,
    pub size_params: Vec<VarId>,
    pub tparams: Vec<TPat>,
    pub rt: Type,
}

pub(crate) struct FunParts {
    /// The declared result type with its existential sizes (`?[k].`) as
    /// unknown sizes, one per name.
    pub ret_pattern: Option<Type>,
    pub type_params: Vec<TypeParamId>,
    pub size_params: Vec<VarId>,
    pub size_sources: Vec<SizeSource>,
    pub params: Vec<TPat>,
    pub ret: Type,
    pub body: TExp,
}

impl Checker {
    /// The source text of `span`, its white space collapsed to one line.
    pub(crate) fn source_line(&self, span: Span) -> String {
        let file = self.files.sources.get(span.file);
        let text = file.text.get(span.range()).unwrap_or("");
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The source text of `span` on one line, shortened for a message.
    fn source_excerpt(&self, span: Span) -> String {
        let one = self.source_line(span);
        if one.chars().count() > 40 {
            format!("{}...", one.chars().take(37).collect::<String>())
        } else {
            one
        }
    }
}

fn describe_fn(f: &Exp) -> String {
    match &f.kind {
        ExpKind::Var(q) => format!("\"{}\"", q.full()),
        _ => "expression".to_string(),
    }
}

/// The error for an array whose elements would be functions.
pub(crate) fn lifted_array(span: Span, elem: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("Cannot create array with elements of lifted type '{elem}': functional values cannot be array elements"),
    )
}

/// The error for a value that would be a function where Futhark allows
/// none (`what`: "the result of an 'if'", "a loop parameter").
fn no_function(span: Span, what: &str, ty: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("{what} may not be of function type, but this has type '{ty}'"),
    )
}

/// Dimension `dim` of the array at `path` (tuple positions and record
/// fields) in `t`, where a size source ([`crate::pat::Sizes`]) points.
fn dim_at(t: &Type, path: &[String], dim: u32) -> Option<Dim> {
    match t {
        Type::Array(elem, dims) => match dims.get(dim as usize) {
            Some(d) => Some(d.clone()),
            None => dim_at(elem, path, dim - dims.len() as u32),
        },
        Type::Tuple(ts) => {
            let (first, rest) = path.split_first()?;
            dim_at(ts.get(first.parse::<usize>().ok()?)?, rest, dim)
        }
        Type::Record(fs) => {
            let (first, rest) = path.split_first()?;
            dim_at(&fs.iter().find(|(n, _)| n == first)?.1, rest, dim)
        }
        _ => None,
    }
}

/// Whether type `t` (zonked) mentions type parameter `p`.
/// The size variables that `t` (zonked) names, in the fields and
/// constructors of its type variables too.
fn dims_in(inf: &crate::unify::Infer, t: &Type, out: &mut Vec<VarId>) {
    match t {
        Type::Prim(_) | Type::Param(_) => {}
        Type::Var(v) => {
            for (_, t) in inf.fields_of(*v) {
                dims_in(inf, &inf.zonk(&t), out)
            }
            for (_, ts) in inf.constrs_of(*v) {
                for t in ts {
                    dims_in(inf, &inf.zonk(&t), out)
                }
            }
        }
        Type::Array(e, ds) => {
            for d in ds {
                inf.zonk_dim(d).vars(out);
            }
            dims_in(inf, e, out)
        }
        Type::Acc(e) => dims_in(inf, e, out),
        Type::Tuple(ts) => ts.iter().for_each(|t| dims_in(inf, t, out)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| dims_in(inf, t, out)),
        Type::Arrow(a, b) => {
            dims_in(inf, a, out);
            dims_in(inf, b, out)
        }
        Type::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| dims_in(inf, t, out))),
    }
}

fn mentions_param(inf: &crate::unify::Infer, t: &Type, p: TypeParamId) -> bool {
    let m = |t: &Type| mentions_param(inf, t, p);
    match t {
        Type::Param(q) => *q == p,
        Type::Prim(_) => false,
        // A variable's known fields and constructors are parts of it
        // (`x.0` of a variable `x`).
        Type::Var(v) => {
            inf.fields_of(*v).iter().any(|(_, t)| m(&inf.zonk(t)))
                || inf
                    .constrs_of(*v)
                    .iter()
                    .any(|(_, ts)| ts.iter().any(|t| m(&inf.zonk(t))))
        }
        Type::Array(e, _) | Type::Acc(e) => m(e),
        Type::Tuple(ts) => ts.iter().any(m),
        Type::Record(fs) => fs.iter().any(|(_, t)| m(t)),
        Type::Arrow(a, b) => m(a) || m(b),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(m)),
    }
}
