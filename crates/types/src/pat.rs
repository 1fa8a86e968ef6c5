//! Patterns: binding variables with types, and finding where size
//! parameters can be read off the shapes of bound values.

use crate::env::{Checker, Res};
use crate::tast::{Dim, Literal, SizeSource, TExpKind, TPat, Type, VarId};
use parad_base::{Diagnostic, Span};
use parad_syntax::ast::Pat;

/// Size parameters being bound (`[n]` of a function or `let`) and the
/// sources found for them so far.
#[derive(Default)]
pub(crate) struct Sizes {
    pub pending: Vec<(String, VarId)>,
    pub found: Vec<SizeSource>,
    /// Variables whose declared type has dimensions that no size
    /// parameter is read from (`xs: [3]i32`, `ys: [n + 1]i32`, `zs: [n]i32`
    /// with `n` bound elsewhere): the declared type with only those
    /// dimensions, to be checked where the variable is bound.
    pub checks: Vec<(VarId, Type)>,
    /// Unknown sizes (`[]`) in declared types are size variables (in a
    /// function's parameters).
    pub implicit: bool,
}

impl Sizes {
    /// Records the sources of the pending size parameters that a declared
    /// type names as dimensions (`[n]f32`, also through type abbreviations
    /// such as `vec [n]`): dimension `dim` of the value at `path` in `of`.
    /// Every source is kept: lowering binds the size from the first and
    /// checks at run time that the others agree.
    fn walk(&mut self, t: &Type, of: VarId, path: &mut Vec<String>, dim: u32) {
        match t {
            Type::Array(elem, dims) => {
                for (k, d) in dims.iter().enumerate() {
                    if let Dim::Var(v) = d {
                        if self.pending.iter().any(|(_, p)| p == v) {
                            self.found.push(SizeSource {
                                size: *v,
                                of,
                                path: path.clone(),
                                dim: dim + k as u32,
                            });
                        }
                    }
                }
                self.walk(elem, of, path, dim + dims.len() as u32);
            }
            Type::Tuple(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    path.push(i.to_string());
                    self.walk(t, of, path, dim);
                    path.pop();
                }
            }
            Type::Record(fs) => {
                for (n, t) in fs {
                    path.push(n.clone());
                    self.walk(t, of, path, dim);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// Records that variable `var`, declared with type `decl`, must have
    /// the dimensions of `decl` that are not sources of pending sizes.
    fn check(&mut self, var: VarId, decl: &Type) {
        let pending = |v: &VarId| self.pending.iter().any(|(_, p)| p == v);
        let t = decl.map_dims(&|d| match d {
            Dim::Var(v) if pending(v) => Dim::Any,
            Dim::Infer(_) | Dim::AbbrevParam(_) => Dim::Any,
            d => d.clone(),
        });
        let mut known = false;
        t.each_dim(&mut |d| known |= *d != Dim::Any);
        if known {
            self.checks.push((var, t));
        }
    }

    /// The type of the values pattern `p` matches, with only the dimensions
    /// recorded by [`Sizes::check`]: what a value bound to `p` is checked
    /// against (as by `:>`).
    pub fn declared_shape(&self, p: &TPat) -> Option<Type> {
        fn go(checks: &[(VarId, Type)], p: &TPat) -> Type {
            match p {
                TPat::Var(v, t, _) => match checks.iter().find(|(w, _)| w == v) {
                    Some((_, d)) => d.clone(),
                    None => t.map_dims(&|_| Dim::Any),
                },
                TPat::Tuple(ps, _) => Type::Tuple(ps.iter().map(|p| go(checks, p)).collect()),
                TPat::Record(fs, _) => {
                    Type::Record(fs.iter().map(|(n, p)| (n.clone(), go(checks, p))).collect())
                }
                p => p.ty().map_dims(&|_| Dim::Any),
            }
        }
        (!self.checks.is_empty()).then(|| go(&self.checks, p))
    }
}

/// The error for a name bound twice by one binding construct (a pattern,
/// the parameters of a function, its type or size parameters).
pub(crate) fn also_bound(name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("'{name}' is also bound earlier in the same binding"),
    )
    .with_label(first, format!("'{name}' also bound here"))
}

/// The names a pattern binds, with where each is bound, in order.
pub(crate) fn pat_names(p: &Pat, out: &mut Vec<(String, Span)>) {
    match p {
        Pat::Id(id) => out.push((id.name.clone(), id.span)),
        Pat::Wildcard(_) | Pat::Lit(..) | Pat::NegLit(..) => {}
        Pat::Tuple(ps, _) | Pat::Constr(_, ps, _) => ps.iter().for_each(|p| pat_names(p, out)),
        Pat::Record(fs, _) => {
            for (name, p) in fs {
                match p {
                    Some(p) => pat_names(p, out),
                    None => out.push((name.name.clone(), name.span)),
                }
            }
        }
        Pat::Ascribe(p, _, _) | Pat::Attr(_, p, _) => pat_names(p, out),
    }
}

/// Rejects a name that occurs twice in `names` (the names one construct
/// binds at once: parameters of a function, its size parameters).
pub(crate) fn check_distinct(names: &[(String, Span)]) -> Res<()> {
    for (i, (n, s)) in names.iter().enumerate() {
        if let Some((_, first)) = names[..i].iter().find(|(m, _)| m == n) {
            return Err(also_bound(n, *s, *first));
        }
    }
    Ok(())
}

/// A variable bound by a pattern, to be added to the scope.
pub(crate) struct Binding {
    pub name: String,
    pub var: VarId,
    pub ty: Type,
}

impl Checker {
    /// Checks pattern `p` against type `ty`. `decl` is the type the user
    /// declared for this part of the pattern, if any (for size sources).
    pub fn check_pat(
        &mut self,
        p: &Pat,
        ty: &Type,
        decl: Option<&Type>,
        sizes: &mut Sizes,
        binds: &mut Vec<Binding>,
    ) -> Res<TPat> {
        match p {
            Pat::Id(id) => {
                if let Some(b) = binds.iter().find(|b| b.name == id.name) {
                    let first = self.vars[b.var.0 as usize].span;
                    return Err(also_bound(&id.name, id.span, first));
                }
                let var = self.new_var(&id.name, ty.clone(), id.span);
                if let Some(te) = decl {
                    sizes.walk(te, var, &mut vec![], 0);
                    sizes.check(var, te);
                }
                binds.push(Binding {
                    name: id.name.clone(),
                    var,
                    ty: ty.clone(),
                });
                Ok(TPat::Var(var, ty.clone(), id.span))
            }
            // A wildcard with a declared type may still give sizes
            // (`length [n] 't (_: [n]t)`): it binds a hidden variable.
            Pat::Wildcard(span) => match decl {
                Some(te) => {
                    let var = self.new_var("_", ty.clone(), *span);
                    sizes.walk(te, var, &mut vec![], 0);
                    sizes.check(var, te);
                    Ok(TPat::Var(var, ty.clone(), *span))
                }
                None => Ok(TPat::Wildcard(ty.clone(), *span)),
            },
            Pat::Tuple(ps, span) => {
                if ps.len() == 1 {
                    return self.check_pat(&ps[0], ty, decl, sizes, binds);
                }
                let comps: Vec<Type> = ps.iter().map(|_| self.inf.fresh()).collect();
                let tuple = Type::Tuple(comps.clone());
                self.inf.unify(ty, &tuple).map_err(|_| {
                    Diagnostic::error(
                        *span,
                        format!(
                            "pattern of type '{}' cannot match a value of type '{}'",
                            self.show(&tuple),
                            self.show(ty)
                        ),
                    )
                })?;
                let decls: Vec<Option<&Type>> = match decl {
                    Some(Type::Tuple(ts)) if ts.len() == ps.len() => ts.iter().map(Some).collect(),
                    _ => vec![None; ps.len()],
                };
                let mut out = vec![];
                for ((p, t), d) in ps.iter().zip(&comps).zip(decls) {
                    out.push(self.check_pat(p, t, d, sizes, binds)?);
                }
                Ok(TPat::Tuple(out, *span))
            }
            Pat::Record(fields, span) => {
                let mut sorted: Vec<(&str, Option<&Pat>, Span)> = vec![];
                for (name, p) in fields {
                    if sorted.iter().any(|(n, _, _)| *n == name.name) {
                        return Err(Diagnostic::error(
                            name.span,
                            format!(
                                "Duplicate fields in record pattern: '{}' appears twice",
                                name.name
                            ),
                        ));
                    }
                    sorted.push((&name.name, p.as_ref(), name.span));
                }
                sorted.sort_by(|a, b| a.0.cmp(b.0));
                let comps: Vec<(String, Type)> = sorted
                    .iter()
                    .map(|(n, _, _)| (n.to_string(), self.inf.fresh()))
                    .collect();
                let rec = Type::Record(comps.clone());
                self.inf.unify(ty, &rec).map_err(|_| {
                    Diagnostic::error(
                        *span,
                        format!(
                            "pattern of type '{}' cannot match a value of type '{}'",
                            self.show(&rec),
                            self.show(ty)
                        ),
                    )
                })?;
                let mut out = vec![];
                for ((name, p, nspan), (_, t)) in sorted.iter().zip(&comps) {
                    let d = match decl {
                        Some(Type::Record(fs)) => {
                            fs.iter().find(|(n, _)| n == name).map(|(_, t)| t)
                        }
                        _ => None,
                    };
                    let tp = match p {
                        Some(p) => self.check_pat(p, t, d, sizes, binds)?,
                        None => {
                            let id = parad_syntax::ast::Ident {
                                name: name.to_string(),
                                span: *nspan,
                            };
                            self.check_pat(&Pat::Id(id), t, d, sizes, binds)?
                        }
                    };
                    out.push((name.to_string(), tp));
                }
                Ok(TPat::Record(out, *span))
            }
            Pat::Ascribe(inner, te, _) => {
                let declared = match sizes.implicit {
                    true => self.param_type_exp(te)?,
                    false => self.type_exp(te)?,
                };
                let mark = self.inf.mismatch_mark();
                self.unify_at(inner.span(), &declared, ty)?;
                // Two declarations of one value's type (`((_, xs: [n]i64):
                // (i64, [m]i64))`) must agree on the sizes both name.
                if decl.is_some() {
                    let lead =
                        "The pattern's declared type does not match the enclosing declaration.";
                    self.sizes_agree(mark, inner.span(), lead, &declared, ty)?;
                }
                let tp = self.check_pat(inner, ty, Some(&declared), sizes, binds)?;
                self.record_declared_uniq(&tp, te);
                Ok(tp)
            }
            Pat::Attr(_, inner, _) => self.check_pat(inner, ty, decl, sizes, binds),
            // Literal patterns are refutable: `finish` rejects them outside
            // `match` cases.
            Pat::Lit(l, span) | Pat::NegLit(l, span) => {
                let t = self.check_lit(l, *span)?;
                let TExpKind::Lit(mut v) = t.kind else {
                    unreachable!("check_lit gives a literal")
                };
                if matches!(p, Pat::NegLit(..)) {
                    if let Literal::Bool(_) = v {
                        return Err(Diagnostic::error(*span, "cannot negate a boolean"));
                    }
                    v = crate::exp::negate_lit(v, &t.ty);
                }
                self.unify_at(*span, ty, &t.ty)?;
                Ok(TPat::Lit(v, t.ty, *span))
            }
            Pat::Constr(name, ps, span) => {
                let payload: Vec<Type> = ps.iter().map(|_| self.inf.fresh()).collect();
                let want = self
                    .inf
                    .fresh_with_constr(&name.name, payload.clone(), true);
                self.unify_at(*span, ty, &want)?;
                let mut out = vec![];
                for (p, t) in ps.iter().zip(&payload) {
                    out.push(self.check_pat(p, t, None, sizes, binds)?);
                }
                Ok(TPat::Constr(name.name.clone(), out, ty.clone(), *span))
            }
        }
    }

    /// Records, for the variables of `p` (checked against the declared
    /// type `te`), whether `te` declares them unique; an ascription nested
    /// inside the pattern was recorded first and stays.
    fn record_declared_uniq(&mut self, p: &TPat, te: &parad_syntax::ast::TypeExp) {
        use parad_syntax::ast::TypeExp;
        match (p, te) {
            (_, TypeExp::Tuple(ts, _)) if ts.len() == 1 => self.record_declared_uniq(p, &ts[0]),
            (TPat::Tuple(ps, _), TypeExp::Tuple(ts, _)) if ps.len() == ts.len() => {
                for (p, t) in ps.iter().zip(ts) {
                    self.record_declared_uniq(p, t);
                }
            }
            (TPat::Record(ps, _), TypeExp::Record(ts, _)) => {
                for (n, p) in ps {
                    if let Some((_, t)) = ts.iter().find(|(f, _)| f.name == *n) {
                        self.record_declared_uniq(p, t);
                    }
                }
            }
            _ => {
                let unique = matches!(te, TypeExp::Unique(..));
                let mut vs = vec![];
                p.vars(&mut vs);
                for v in vs {
                    self.declared_uniq.entry(v).or_insert(unique);
                }
                if let (TPat::Var(v, _, _), TypeExp::Arrow(..)) = (p, te) {
                    self.declared_fn
                        .entry(*v)
                        .or_insert_with(|| crate::unique::UShape::of_fun_type(te));
                }
            }
        }
    }

    /// Adds the bindings of a checked pattern to the scope.
    pub fn bind_all(&mut self, binds: Vec<Binding>) {
        for b in binds {
            self.bind(&b.name, b.var, b.ty);
        }
    }
}
