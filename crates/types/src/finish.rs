//! After a top-level definition is checked: default ambiguous overloaded
//! types (integers to i32, floats to f64), resolve every type in the tree,
//! and fix literals to their final types.

use crate::env::{Checker, Res};
use crate::tast::*;
use parad_base::{Diagnostic, FloatType, IntType, PrimType, Span};

impl Checker {
    /// Resolves a type completely, defaulting what inference left open,
    /// with abstract types replaced by their representations.
    pub(crate) fn resolve(&mut self, t: &Type, span: Span) -> Res<Type> {
        let t = self.resolve_keep_abstract(t, span)?;
        Ok(self.expand_abstract(&t))
    }

    /// As [`Checker::resolve`], keeping abstract types (for the type a
    /// function has where it is used).
    pub(crate) fn resolve_keep_abstract(&mut self, t: &Type, span: Span) -> Res<Type> {
        let mut fv = vec![];
        self.inf.free_vars(t, &mut fv);
        for v in fv {
            if !matches!(self.inf.shallow(&Type::Var(v)), Type::Var(w) if w == v) {
                continue;
            }
            if self.inf.has_fields(v) {
                let fields = self.inf.fields_of(v);
                let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "type is ambiguous: cannot infer the record or tuple type that has field '{}'; add a type annotation",
                        names.join("', '")
                    ),
                ));
            }
            // A sum type known only by some of its constructors is the
            // sum of those, unless a pattern names a constructor that no
            // expression builds (the type is then unclear).
            let only_in_patterns = self.inf.pattern_only_constrs(v);
            if !only_in_patterns.is_empty() {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "Type is ambiguous: a sum type with constructors {}, where #{} only occurs in patterns; add a type annotation",
                        self.show(&Type::Var(v)),
                        only_in_patterns.join(", #")
                    ),
                ));
            }
            if self.inf.has_constrs(v) {
                let mut cs = self.inf.constrs_of(v);
                cs.sort_by(|a, b| a.0.cmp(&b.0));
                self.inf.set(v, Type::Sum(cs));
                continue;
            }
            let class = self.inf.class_of(v);
            if class.is_any() && self.inf.needs_eq(v) {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "Type '{}' is ambiguous: its values are compared for equality, and a type parameter does not support equality; add a type annotation",
                        self.show(&Type::Var(v))
                    ),
                ));
            }
            let t = if class.is_any() {
                Type::unit()
            } else {
                Type::Prim(class.default_type())
            };
            self.inf.set(v, t);
        }
        let t = self.inf.zonk(t).map_dims(&|d| self.inf.close_dim(d));
        if array_of_acc(&t) {
            return Err(Diagnostic::error(
                span,
                format!(
                    "arrays of accumulators are not allowed (this has type '{}')",
                    self.show(&t)
                ),
            ));
        }
        Ok(t)
    }

    /// Finishes a pattern that binds (parameters, `let`, loops): it must
    /// be irrefutable.
    pub(crate) fn finish_pat(&mut self, p: &mut TPat) -> Res<()> {
        self.finish_pat_in(p, false)
    }

    /// Finishes a pattern; literals and constructors of sum types with
    /// several constructors are allowed only where `refutable` (in `match`).
    fn finish_pat_in(&mut self, p: &mut TPat, refutable: bool) -> Res<()> {
        match p {
            TPat::Var(_, t, s) | TPat::Wildcard(t, s) => *t = self.resolve(t, *s)?,
            TPat::Tuple(ps, _) => ps
                .iter_mut()
                .try_for_each(|p| self.finish_pat_in(p, refutable))?,
            TPat::Record(fs, _) => fs
                .iter_mut()
                .try_for_each(|(_, p)| self.finish_pat_in(p, refutable))?,
            TPat::Constr(_, ps, t, s) => {
                *t = self.resolve(t, *s)?;
                if !refutable && matches!(t, Type::Sum(cs) if cs.len() > 1) {
                    return Err(Diagnostic::error(
                        *s,
                        format!(
                            "Refutable pattern not allowed here: a value of type '{}' may have another constructor",
                            self.show(t)
                        ),
                    )
                    .with_note("use 'match' to distinguish constructors"));
                }
                ps.iter_mut()
                    .try_for_each(|p| self.finish_pat_in(p, refutable))?;
            }
            TPat::Lit(l, t, s) => {
                if !refutable {
                    return Err(Diagnostic::error(
                        *s,
                        "Refutable pattern not allowed here: a literal pattern",
                    )
                    .with_note("literal patterns are only allowed in 'match' cases"));
                }
                *t = self.resolve(t, *s)?;
                *l = fix_literal(*l, t, *s)?;
            }
        }
        Ok(())
    }

    fn finish_types(&mut self, ts: &mut [Type], span: Span) -> Res<()> {
        for t in ts {
            *t = self.resolve(t, span)?;
        }
        Ok(())
    }

    fn finish_opt(&mut self, e: &mut Option<TExp>) -> Res<()> {
        match e {
            Some(e) => self.finish_exp(e),
            None => Ok(()),
        }
    }

    fn finish_slices(&mut self, slices: &mut [TDimIndex]) -> Res<()> {
        for s in slices {
            match s {
                TDimIndex::Fix(e) => self.finish_exp(e)?,
                TDimIndex::Slice { start, end, stride } => {
                    self.finish_opt(start)?;
                    self.finish_opt(end)?;
                    self.finish_opt(stride)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn finish_exp(&mut self, e: &mut TExp) -> Res<()> {
        let span = e.span;
        e.ty = self.resolve(&e.ty, span)?;
        hole_as_lambda(e);
        match &mut e.kind {
            TExpKind::Lit(l) => *l = fix_literal(*l, &e.ty, span)?,
            TExpKind::Var(_, inst, sizes) => {
                self.finish_types(inst, span)?;
                for (_, d) in sizes {
                    *d = self.inf.close_dim(&self.inf.zonk_dim(d));
                }
            }
            TExpKind::Global(_, inst, sizes) => {
                self.finish_types(inst, span)?;
                for (_, d) in sizes.iter_mut() {
                    *d = self.inf.close_dim(&self.inf.zonk_dim(d));
                }
            }
            TExpKind::Intrinsic(_, inst) => self.finish_types(inst, span)?,
            TExpKind::Tuple(es) | TExpKind::ArrayLit(es) => {
                es.iter_mut().try_for_each(|e| self.finish_exp(e))?
            }
            TExpKind::Record(fs) => fs.iter_mut().try_for_each(|(_, e)| self.finish_exp(e))?,
            TExpKind::Range {
                start, second, end, ..
            } => {
                self.finish_exp(start)?;
                if let Some(s) = second {
                    self.finish_exp(s)?;
                }
                self.finish_exp(end)?;
            }
            TExpKind::Project(x, _) => self.finish_exp(x)?,
            TExpKind::Index(x, slices) => {
                self.finish_exp(x)?;
                self.finish_slices(slices)?;
            }
            TExpKind::Update(x, slices, v) => {
                self.finish_exp(x)?;
                self.finish_slices(slices)?;
                self.finish_exp(v)?;
            }
            TExpKind::RecordUpdate(x, _, v) => {
                self.finish_exp(x)?;
                self.finish_exp(v)?;
            }
            TExpKind::Apply(f, args) => {
                self.finish_exp(f)?;
                args.iter_mut().try_for_each(|a| self.finish_exp(a))?;
                self.finish_rep_size(f, args)?;
            }
            TExpKind::If(c, t, f) => {
                self.finish_exp(c)?;
                self.finish_exp(t)?;
                self.finish_exp(f)?;
            }
            TExpKind::Let { pat, rhs, body, .. } => {
                self.finish_exp(rhs)?;
                self.finish_pat(pat)?;
                self.finish_exp(body)?;
            }
            TExpKind::LetFun(f, body) => {
                f.params.iter_mut().try_for_each(|p| self.finish_pat(p))?;
                f.ret = self.resolve(&f.ret, span)?;
                self.finish_exp(&mut f.body)?;
                self.finish_exp(body)?;
            }
            TExpKind::Lambda(ps, body) => {
                ps.iter_mut().try_for_each(|p| self.finish_pat(p))?;
                self.finish_exp(body)?;
            }
            TExpKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                self.finish_exp(init)?;
                self.finish_pat(pat)?;
                match form {
                    TLoopForm::For(_, b) => self.finish_exp(b)?,
                    TLoopForm::ForIn(p, xs) => {
                        self.finish_pat(p)?;
                        self.finish_exp(xs)?;
                    }
                    TLoopForm::While(c) => self.finish_exp(c)?,
                }
                self.finish_exp(body)?;
            }
            TExpKind::Assert(c, x) => {
                self.finish_exp(c)?;
                self.finish_exp(x)?;
            }
            TExpKind::Coerce(x) | TExpKind::UserParam(_, x) => self.finish_exp(x)?,
            TExpKind::Constr(_, args) => args.iter_mut().try_for_each(|a| self.finish_exp(a))?,
            TExpKind::Match(x, cases) => {
                self.finish_exp(x)?;
                for (p, e) in cases.iter_mut() {
                    self.finish_pat_in(p, true)?;
                    self.finish_exp(e)?;
                }
                let pats: Vec<&TPat> = cases.iter().map(|(p, _)| p).collect();
                if let Some(w) = crate::exhaust::unmatched(&x.ty, &pats) {
                    return Err(Diagnostic::error(
                        span,
                        format!("Unmatched cases in match expression: {w}"),
                    )
                    .with_note("add a case for this value, or a final 'case _'"));
                }
            }
        }
        Ok(())
    }

    /// Resolves the types of the variables created since `mark`.
    pub(crate) fn finish_vars(&mut self, mark: usize) -> Res<()> {
        for i in mark..self.vars.len() {
            let (t, s) = (self.vars[i].ty.clone(), self.vars[i].span);
            self.vars[i].ty = self.resolve(&t, s)?;
        }
        Ok(())
    }
}

/// The value of a literal with a type suffix (`255u8`, `0xffi8`, `-1u32`):
/// a bit pattern of the type's width is that pattern, as Futhark reads
/// suffixed literals; `None` if the value is wider than the type.
pub(crate) fn wrap_suffixed(v: i128, t: IntType) -> Option<i128> {
    let bits = t.bits();
    let modulus = 1i128 << bits;
    let half = 1i128 << (bits - 1);
    if v < -half || v >= modulus {
        return None;
    }
    let w = v.rem_euclid(modulus);
    Some(if t.signed() && w >= half {
        w - modulus
    } else {
        w
    })
}

/// Gives a literal the representation of its final type. A literal must
/// lie in the range of its type (suffixed literals were already wrapped to
/// it by [`wrap_suffixed`]); a float literal must not round to infinity.
fn fix_literal(l: Literal, ty: &Type, span: Span) -> Res<Literal> {
    let out_of_bounds = |shown: String, t: &str| {
        Diagnostic::error(
            span,
            format!("literal {shown} is out of bounds for its inferred type '{t}'"),
        )
    };
    match (l, ty) {
        (Literal::Int(v), Type::Prim(PrimType::Float(t))) => fix_literal(
            Literal::Float(v as f64),
            &Type::Prim(PrimType::Float(*t)),
            span,
        )
        .map_err(|_| out_of_bounds(v.to_string(), t.name())),
        (Literal::Float(x), Type::Prim(PrimType::Float(t))) => {
            // Infinite values come from `f64.inf` and friends; a literal
            // too large for f64 was rejected when checked.
            let inf = x.is_finite()
                && match t {
                    FloatType::F16 => x.abs() >= 65520.0,
                    FloatType::F32 => (x as f32).is_infinite(),
                    FloatType::F64 => false,
                };
            if inf {
                return Err(out_of_bounds(format!("{x:e}"), t.name()));
            }
            Ok(l)
        }
        (Literal::Int(v), Type::Prim(PrimType::Int(t))) => {
            let bits = t.bits();
            let (lo, hi) = if t.signed() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < lo || v > hi {
                return Err(out_of_bounds(v.to_string(), t.name())
                    .with_note(format!("'{}' ranges from {lo} to {hi}", t.name())));
            }
            Ok(l)
        }
        _ => Ok(l),
    }
}

/// Whether `t` has an array whose elements contain an accumulator.
fn array_of_acc(t: &Type) -> bool {
    fn has_acc(t: &Type) -> bool {
        match t {
            Type::Acc(_) => true,
            Type::Array(e, _) => has_acc(e),
            Type::Tuple(ts) => ts.iter().any(has_acc),
            Type::Record(fs) => fs.iter().any(|(_, t)| has_acc(t)),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_acc)),
            _ => false,
        }
    }
    match t {
        Type::Array(e, _) => has_acc(e),
        Type::Tuple(ts) => ts.iter().any(array_of_acc),
        Type::Record(fs) => fs.iter().any(|(_, t)| array_of_acc(t)),
        Type::Arrow(a, b) => array_of_acc(a) || array_of_acc(b),
        Type::Acc(t) => array_of_acc(t),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(array_of_acc)),
        _ => false,
    }
}

/// A typed hole of a function type becomes a function that ignores its
/// arguments and is a hole of the result type, so that applying it is
/// the run-time error (rather than lowering failing on a function value
/// that does not exist).
fn hole_as_lambda(e: &mut TExp) {
    let TExpKind::Apply(f, args) = &e.kind else {
        return;
    };
    if hole_message(f, args).is_none() || !matches!(e.ty, Type::Arrow(..)) {
        return;
    }
    let mut params = vec![];
    let mut res = e.ty.clone();
    while let Type::Arrow(a, r) = res {
        params.push(TPat::Wildcard(*a, e.span));
        res = *r;
    }
    let mut inner = e.clone();
    inner.ty = res.clone();
    if let TExpKind::Apply(f, args) = &mut inner.kind {
        f.kind = TExpKind::Intrinsic("__hole", vec![res.clone()]);
        f.ty = Type::arrow(args[0].ty.clone(), res);
    }
    e.kind = TExpKind::Lambda(params, Box::new(inner));
}
