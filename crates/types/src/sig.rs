//! Module types: their evaluation (`{ specs }`, `mt with t = te`,
//! functor types), and ascription, which matches a module against a
//! module type and returns the module as the module type shows it.
//!
//! A module type is kept as its specifications with the scope they were
//! written in ([`Sig::Specs`]); matching walks the specifications in that
//! scope, binding each type the module type names to the module's, so a
//! later `val` specification is read in terms of the module's types. A
//! type left abstract by an ascription (`M : S` with `type t` in `S`)
//! becomes a fresh rigid type parameter outside: code using `M` cannot
//! tell it from any other type, and the checker records its
//! representation ([`Checker::abstract_defs`]) to substitute it when the
//! program is finished, since lowering needs the real types. Abstract
//! types with parameters (`type t 'a`) stay transparent.
//!
//! A functor parameter is bound to its argument as the parameter's module
//! type shows it, but transparently: the functor's body is checked once
//! per application, with the argument's types.

use crate::env::{AbbrevParam, Checker, Global, Res, TypeName};
use crate::modules::{ModEnv, Module, Scope};
use crate::tast::{Dim, FunId, Type, TypeParamId};
use parad_base::{Diagnostic, Span};
use parad_syntax::ast::{Liftedness, ModTypeExp, QualName, Spec, TypeExp, TypeParam};
use std::rc::Rc;

#[derive(Debug)]
pub(crate) enum Sig {
    /// `{ specs }`, with refinements (`with t = …`) by path below it.
    Specs {
        specs: Rc<Vec<Spec>>,
        closure: Scope,
        refine: Vec<(Vec<String>, TypeName)>,
    },
    /// `(p: A) -> B`: the type of a parametric module. Not checked beyond
    /// being a functor; its applications are checked.
    Functor,
}

/// `base` and the refinements `more` of a module type at `path`, all
/// by their paths from the outermost module type.
fn refinements(
    base: &[(Vec<String>, TypeName)],
    path: &[String],
    more: &[(Vec<String>, TypeName)],
) -> Vec<(Vec<String>, TypeName)> {
    let mut all = base.to_vec();
    all.extend(more.iter().map(|(p, t)| {
        let mut q = path.to_vec();
        q.extend(p.iter().cloned());
        (q, t.clone())
    }));
    all
}

/// `path.name`.
fn child(path: &[String], name: &str) -> Vec<String> {
    let mut full = path.to_vec();
    full.push(name.to_string());
    full
}

/// What a module must define for its module type, or the error saying it
/// does not (`what`: "a type", `qual`: "'m.t'").
fn required<T>(found: Option<T>, span: Span, what: &str, qual: &str) -> Res<T> {
    found.ok_or_else(|| {
        Diagnostic::error(
            span,
            format!("module type requires {what}'{qual}', which the module does not define"),
        )
    })
}

/// `M.N.x` for diagnostics.
fn qualified(path: &[String], name: &str) -> String {
    let mut s = path.join(".");
    if !s.is_empty() {
        s.push('.');
    }
    s.push_str(name);
    s
}

impl Checker {
    pub fn eval_sig(&mut self, mte: &ModTypeExp) -> Res<Rc<Sig>> {
        match mte {
            ModTypeExp::Var(q) => self.lookup_sig(q),
            ModTypeExp::Specs(specs, _) => {
                self.validate_specs(specs)?;
                Ok(Rc::new(Sig::Specs {
                    specs: Rc::new(specs.clone()),
                    closure: self.scope_now(),
                    refine: vec![],
                }))
            }
            ModTypeExp::With(base, q, params, te, span) => {
                let b = self.eval_sig(base)?;
                let Sig::Specs {
                    specs,
                    closure,
                    refine,
                } = &*b
                else {
                    return Err(Diagnostic::error(
                        *span,
                        "cannot refine the type of a parametric module",
                    ));
                };
                let mut path = q.quals.clone();
                path.push(q.name.clone());
                let def = self.type_name_of(params, te)?;
                let found = if refine.iter().any(|(p, _)| *p == path) {
                    Some(None)
                } else {
                    let saved = self.set_scope(closure.clone());
                    let r = self.abstract_at(specs, &path);
                    self.set_scope(saved);
                    r?
                };
                match found {
                    Some(Some((_, ps))) if !same_params(&ps, params) => {
                        return Err(Diagnostic::error(
                            q.span,
                            format!(
                                "Cannot refine a type: '{}' is declared with parameters '{}' but refined with '{}'",
                                q.full(),
                                show_params(&ps),
                                show_params(params)
                            ),
                        ))
                    }
                    Some(Some(_)) => {}
                    Some(None) => {
                        return Err(Diagnostic::error(
                            q.span,
                            format!(
                                "Cannot refine a type: '{}' is not an abstract type of the module type",
                                q.full()
                            ),
                        ))
                    }
                    None => {
                        return Err(Diagnostic::error(
                            q.span,
                            format!(
                                "Cannot refine a type: the module type has no type '{}'",
                                q.full()
                            ),
                        ))
                    }
                }
                let mut refine = refine.clone();
                refine.push((path, def));
                Ok(Rc::new(Sig::Specs {
                    specs: specs.clone(),
                    closure: closure.clone(),
                    refine,
                }))
            }
            ModTypeExp::Arrow(p, a, b, _) => {
                // Both sides must be well formed; the result may mention
                // the parameter, which stands for any module of its type.
                let arg = self.eval_sig(a)?;
                let saved = self.scope_now();
                let r = (|| {
                    if let (Some(p), Some(m)) = (p, self.stand_in(&arg)?) {
                        self.mods.push((p.name.clone(), m));
                    }
                    self.eval_sig(b)
                })();
                self.set_scope(saved);
                r?;
                Ok(Rc::new(Sig::Functor))
            }
        }
    }

    fn lookup_sig(&mut self, q: &QualName) -> Res<Rc<Sig>> {
        let found = if q.quals.is_empty() {
            self.opened_envs
                .iter()
                .rev()
                .find_map(|(_, e)| e.sig(&q.name).cloned())
                .or_else(|| {
                    self.sigs
                        .iter()
                        .rev()
                        .find(|(n, _)| *n == q.name)
                        .map(|(_, s)| s.clone())
                })
        } else {
            match self.qualifier(&q.quals, q.span)? {
                Some(Module::Struct(env)) => env.sig(&q.name).cloned(),
                _ => None,
            }
        };
        found
            .ok_or_else(|| Diagnostic::error(q.span, format!("unknown module type '{}'", q.full())))
    }

    /// Whether the specifications (in the current scope) declare a type at
    /// `path`: `Some(Some(its parameters))` if it is abstract.
    fn abstract_at(&mut self, specs: &[Spec], path: &[String]) -> Res<Option<Option<Abstract>>> {
        let mut found = None;
        for s in specs {
            match s {
                Spec::Type {
                    name,
                    def,
                    params,
                    liftedness,
                    ..
                } => {
                    if path.len() == 1 && name.name == path[0] {
                        found = Some(def.is_none().then(|| (*liftedness, params.clone())));
                    }
                    // Later specifications (`include s with t = t`) may
                    // mention it.
                    let t = match def {
                        Some(te) => self.type_name_of(params, te)?,
                        None => {
                            let t = self.abstract_type(params)?;
                            self.abstract_liftedness(&t, &name.name, *liftedness);
                            t
                        }
                    };
                    self.types.push((name.name.clone(), t));
                }
                Spec::Module { name, sig, .. } if path.len() > 1 && name.name == path[0] => {
                    if let Sig::Specs { specs, refine, .. } = &*self.eval_sig(sig)? {
                        found = if refine.iter().any(|(p, _)| p == &path[1..]) {
                            Some(None)
                        } else {
                            let saved = self.scope_now();
                            let r = self.abstract_at(specs, &path[1..]);
                            self.set_scope(saved);
                            r?
                        };
                    }
                }
                Spec::Include(mte, _) => {
                    if let Sig::Specs { specs, refine, .. } = &*self.eval_sig(mte)? {
                        let r = if refine.iter().any(|(p, _)| p == path) {
                            Some(None)
                        } else {
                            self.abstract_at(specs, path)?
                        };
                        // An earlier abstract specification stays abstract
                        // (`type real  include s with real = real`).
                        if !matches!(found, Some(Some(_))) {
                            found = r.or(found);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(found)
    }

    /// Checks that specifications are well formed: every type they mention
    /// exists, no name is specified twice. Abstract types stand for fresh
    /// rigid types here.
    fn validate_specs(&mut self, specs: &[Spec]) -> Res<()> {
        let saved = self.scope_now();
        let r = self.validate_in_scope(specs);
        self.set_scope(saved);
        r
    }

    fn validate_in_scope(&mut self, specs: &[Spec]) -> Res<()> {
        let mut seen: Vec<(&'static str, String)> = vec![];
        let mut dup = |kind: &'static str, name: &str, span: Span| {
            if seen.iter().any(|(k, n)| *k == kind && n == name) {
                return Err(Diagnostic::error(
                    span,
                    format!("Duplicate specification of {kind} '{name}'"),
                ));
            }
            seen.push((kind, name.to_string()));
            Ok(())
        };
        for s in specs {
            match s {
                Spec::Type {
                    name,
                    params,
                    def,
                    span,
                    ..
                } => {
                    dup("type", &name.name, *span)?;
                    let t = match def {
                        Some(te) => self.type_name_of(params, te)?,
                        None => self.abstract_type(params)?,
                    };
                    self.types.push((name.name.clone(), t));
                }
                Spec::Val {
                    name,
                    type_params,
                    ty,
                    span,
                    ..
                } => {
                    dup("value", &name.name, *span)?;
                    spec_type_shape(&name.name, ty, &mut vec![])?;
                    let (_, t) = self.spec_val_type(type_params, ty)?;
                    self.bind_size_val(&name.name, &t);
                }
                Spec::Module {
                    name, sig, span, ..
                } => {
                    dup("module", &name.name, *span)?;
                    let s = self.eval_sig(sig)?;
                    if let Sig::Specs { specs, .. } = &*s {
                        // Its types, for the specifications after it.
                        let saved = self.scope_now();
                        self.validate_in_scope(specs)?;
                        let mut env = ModEnv::default();
                        for (n, t) in &self.types[saved.types.len()..] {
                            env.set_type(n, t.clone());
                        }
                        self.set_scope(saved);
                        self.mods
                            .push((name.name.clone(), Module::Struct(Rc::new(env))));
                    }
                }
                Spec::Include(mte, _) => {
                    if let Sig::Specs { specs, .. } = &*self.eval_sig(mte)? {
                        self.validate_in_scope(specs)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `val n: i64` makes `n` usable in the sizes of later specifications.
    fn bind_size_val(&mut self, name: &str, t: &Type) {
        if *t == Type::i64() {
            self.types.push((name.to_string(), TypeName::Size));
        }
    }

    /// Records how lifted the abstract type `t` of specification `name`
    /// is (values of a lifted or size-lifted type may not instantiate
    /// unlifted type parameters), and names it as the specification does.
    fn abstract_liftedness(&mut self, t: &TypeName, name: &str, l: Liftedness) {
        if let TypeName::Type(Type::Param(p)) | TypeName::Abbrev(_, Type::Param(p)) = t {
            self.tparam_names[p.0 as usize] = name.to_string();
            match l {
                Liftedness::Lifted => {
                    self.inf.lifted.insert(*p);
                }
                Liftedness::SizeLifted => {
                    self.inf.size_lifted.insert(*p);
                }
                Liftedness::Unlifted => {}
            }
        }
    }

    /// A fresh abstract type with the given parameters.
    fn abstract_type(&mut self, params: &[TypeParam]) -> Res<TypeName> {
        no_duplicate_params(params)?;
        let p = self.new_tparam("abstract");
        if params.is_empty() {
            return Ok(TypeName::Type(Type::Param(p)));
        }
        let ps = params
            .iter()
            .map(|tp| match tp {
                TypeParam::Type(id, _) => AbbrevParam::Type(self.new_tparam(&id.name)),
                TypeParam::Size(_) => AbbrevParam::Size(self.fresh_abbrev_size()),
            })
            .collect();
        Ok(TypeName::Abbrev(ps, Type::Param(p)))
    }

    /// `val f [n] 'a: te`: its type parameters and type.
    fn spec_val_type(
        &mut self,
        tparams: &[TypeParam],
        te: &TypeExp,
    ) -> Res<(Vec<TypeParamId>, Type)> {
        let mark = self.types.len();
        let mut ps = vec![];
        for p in tparams {
            match p {
                TypeParam::Type(id, l) => {
                    let tp = self.new_tparam(&id.name);
                    if *l == parad_syntax::ast::Liftedness::Lifted {
                        self.inf.lifted.insert(tp);
                    }
                    ps.push(tp);
                    self.types
                        .push((id.name.clone(), TypeName::Type(Type::Param(tp))));
                }
                TypeParam::Size(id) => self.types.push((id.name.clone(), TypeName::Size)),
            }
        }
        let t = self.type_exp(te);
        self.types.truncate(mark);
        Ok((ps, t?))
    }

    /// A stand-in for any module of type `s`, to check a parametric
    /// module's body once where it is defined: abstract types are fresh
    /// rigid types, values have their specified types (their functions
    /// never exist: what is checked against a stand-in is discarded).
    /// `None` for a module type of parametric modules.
    pub fn stand_in(&mut self, s: &Sig) -> Res<Option<Module>> {
        let Sig::Specs {
            specs,
            closure,
            refine,
        } = s
        else {
            return Ok(None);
        };
        let saved = self.set_scope(closure.clone());
        let mut out = ModEnv::default();
        let r = self.stand_in_specs(specs, refine, &[], &mut out);
        self.set_scope(saved);
        Ok(r?.then(|| Module::Struct(Rc::new(out))))
    }

    fn stand_in_specs(
        &mut self,
        specs: &[Spec],
        refine: &[(Vec<String>, TypeName)],
        path: &[String],
        out: &mut ModEnv,
    ) -> Res<bool> {
        for s in specs {
            match s {
                Spec::Type {
                    name,
                    liftedness,
                    params,
                    def,
                    ..
                } => {
                    let full = child(path, &name.name);
                    let t = match (def, refine.iter().find(|(p, _)| *p == full)) {
                        (_, Some((_, t))) => t.clone(),
                        (Some(te), None) => self.type_name_of(params, te)?,
                        (None, None) => {
                            let t = self.abstract_type(params)?;
                            self.abstract_liftedness(&t, &name.name, *liftedness);
                            t
                        }
                    };
                    self.types.push((name.name.clone(), t.clone()));
                    out.set_type(&name.name, t);
                    out.set_lifted(&name.name, *liftedness);
                }
                Spec::Val {
                    name,
                    type_params,
                    ty,
                    ..
                } => {
                    let (tps, t) = self.spec_val_type(type_params, ty)?;
                    self.bind_size_val(&name.name, &t);
                    self.stand_ins += 1;
                    let g = Global {
                        id: crate::tast::FunId(u32::MAX - self.stand_ins),
                        type_params: tps,
                        ty: t,
                        view: None,
                    };
                    out.set_val(&name.name, g);
                }
                Spec::Module { name, sig, .. } => {
                    let s = self.eval_sig(sig)?;
                    let Sig::Specs {
                        specs, refine: r2, ..
                    } = &*s
                    else {
                        return Ok(false);
                    };
                    let full = child(path, &name.name);
                    let all = refinements(refine, &full, r2);
                    let saved = self.scope_now();
                    let mut inner = ModEnv::default();
                    let ok = self.stand_in_specs(specs, &all, &full, &mut inner);
                    self.set_scope(saved);
                    if !ok? {
                        return Ok(false);
                    }
                    let m = Module::Struct(Rc::new(inner));
                    self.mods.push((name.name.clone(), m.clone()));
                    out.set_mod(&name.name, m);
                }
                Spec::Include(mte, _) => {
                    let s = self.eval_sig(mte)?;
                    let Sig::Specs {
                        specs, refine: r2, ..
                    } = &*s
                    else {
                        return Ok(false);
                    };
                    let all = refinements(refine, path, r2);
                    if !self.stand_in_specs(specs, &all, path, out)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// `M : S`: the module as `S` shows it, its abstract types hidden.
    pub fn ascribe(&mut self, m: &Module, s: &Sig, span: Span, name: &str) -> Res<Module> {
        let path: Vec<String> = if name.is_empty() {
            vec![]
        } else {
            vec![name.to_string()]
        };
        self.match_module(m, s, span, &path, &[], true)
    }

    /// A functor's argument as its parameter's module type shows it.
    pub fn ascribe_param(&mut self, m: &Module, s: &Sig, span: Span, name: &str) -> Res<Module> {
        self.match_module(m, s, span, &[name.to_string()], &[], false)
    }

    fn match_module(
        &mut self,
        m: &Module,
        s: &Sig,
        span: Span,
        path: &[String],
        outer_refine: &[(Vec<String>, TypeName)],
        opaque: bool,
    ) -> Res<Module> {
        match (s, m) {
            (
                Sig::Specs {
                    specs,
                    closure,
                    refine,
                },
                Module::Struct(env),
            ) => {
                let all = refinements(outer_refine, path, refine);
                let saved = self.set_scope(closure.clone());
                let mut out = ModEnv::default();
                let r = self.match_specs(env, specs, &all, path, &mut out, span, opaque);
                self.set_scope(saved);
                r?;
                Ok(Module::Struct(Rc::new(out)))
            }
            // A numeric module has what the prelude's numeric module types ask for.
            (Sig::Specs { .. }, Module::Prim(_)) => Ok(m.clone()),
            (Sig::Functor, Module::Functor(_)) => Ok(m.clone()),
            (Sig::Specs { .. }, Module::Functor(_)) => Err(Diagnostic::error(
                span,
                format!(
                    "module '{}' is a parametric module, but the module type requires a structure",
                    path.join(".")
                ),
            )),
            (Sig::Functor, _) => Err(Diagnostic::error(
                span,
                format!(
                    "module '{}' is a structure, but the module type requires a parametric module",
                    path.join(".")
                ),
            )),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn match_specs(
        &mut self,
        env: &ModEnv,
        specs: &[Spec],
        refine: &[(Vec<String>, TypeName)],
        path: &[String],
        out: &mut ModEnv,
        span: Span,
        opaque: bool,
    ) -> Res<()> {
        for s in specs {
            match s {
                Spec::Type {
                    name,
                    liftedness,
                    params,
                    def,
                    ..
                } => {
                    let qual = qualified(path, &name.name);
                    let actual = required(env.ty(&name.name).cloned(), span, "a type ", &qual)?;
                    if type_arity(&actual) != params.len() {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "type '{qual}' takes {} parameters, but the module type requires {}",
                                type_arity(&actual),
                                params.len()
                            ),
                        ));
                    }
                    let full = child(path, &name.name);
                    let refined = refine
                        .iter()
                        .find(|(p, _)| *p == full)
                        .map(|(_, t)| t.clone());
                    let wanted = match def {
                        Some(te) => Some(self.type_name_of(params, te)?),
                        None => refined.clone(),
                    };
                    if let Some(w) = &wanted {
                        if !self.same_type_name(w, &actual) {
                            let want = match w {
                                TypeName::Type(t) | TypeName::Abbrev(_, t) => {
                                    self.show(&self.expand_abstract(t))
                                }
                                TypeName::Size => "a size".to_string(),
                            };
                            return Err(Diagnostic::error(
                                span,
                                format!(
                                    "type '{qual}' is '{}', but the module type requires it to be '{want}' ('type {} = {}')",
                                    self.show_type_name(&actual),
                                    name.name,
                                    self.show_type_name(w)
                                ),
                            ));
                        }
                    }
                    let actual_lifted = env.liftedness(&name.name);
                    if refined.is_none() && lift_rank(actual_lifted) > lift_rank(*liftedness) {
                        let (is, declared) = match (actual_lifted, liftedness) {
                            (Liftedness::Lifted, Liftedness::Unlifted) => ("lifted", "non-lifted"),
                            (Liftedness::Lifted, _) => ("lifted", "size-lifted"),
                            _ => ("size-lifted", "non-lifted"),
                        };
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "type '{qual}' is {is} ('type{} {}'), but the module type declares it {declared} ('type{} {}')",
                                lifted_mark(actual_lifted),
                                name.name,
                                lifted_mark(*liftedness),
                                name.name
                            ),
                        ));
                    }
                    let body = match &actual {
                        TypeName::Type(t) | TypeName::Abbrev(_, t) => t.clone(),
                        TypeName::Size => Type::unit(),
                    };
                    if *liftedness != Liftedness::Lifted && self.has_function(&body) {
                        return Err(Diagnostic::error(
                            span,
                            format!(
                                "type '{qual}' is declared non-lifted in the module type, but its definition '{}' might contain functions",
                                self.show_type_name(&actual)
                            ),
                        ));
                    }
                    // An abstract type's size parameters must be sizes of
                    // arrays its values hold, or nothing could determine
                    // them from a value (`type t [n] = [n + 1]bool`).
                    if let (TypeName::Abbrev(ps, t), true) = (&actual, opaque && def.is_none()) {
                        let mut k = 0;
                        for p in ps {
                            if let crate::env::AbbrevParam::Size(n) = p {
                                let mut nth = params.iter().filter_map(|p| match p {
                                    TypeParam::Size(id) => Some(id.name.clone()),
                                    _ => None,
                                });
                                let pname = nth.nth(k).unwrap_or_default();
                                k += 1;
                                if !constructive(t, *n) {
                                    return Err(Diagnostic::error(
                                        span,
                                        format!(
                                            "Size parameter \"[{pname}]\" of the abstract type '{qual}' is not used constructively as an array size in its definition (only inside a size expression or a function type)."
                                        ),
                                    ));
                                }
                            }
                        }
                    }
                    // Outside, the type is the module's where the module
                    // type defines it; its refinement where refined (which
                    // may be in terms of abstract types: `with real =
                    // real`); otherwise a fresh abstract type.
                    let seen = match (&actual, wanted) {
                        (_, Some(w)) if opaque && def.is_none() => w,
                        (TypeName::Type(t), None) if opaque => {
                            let p = self.new_tparam(&qual);
                            self.abstract_defs.insert(p, t.clone());
                            TypeName::Type(Type::Param(p))
                        }
                        _ => actual,
                    };
                    self.types.push((name.name.clone(), seen.clone()));
                    out.set_type(&name.name, seen);
                    out.set_lifted(
                        &name.name,
                        if opaque && def.is_none() {
                            *liftedness
                        } else {
                            actual_lifted
                        },
                    );
                }
                Spec::Val {
                    name,
                    type_params,
                    ty,
                    ..
                } => {
                    let qual = qualified(path, &name.name);
                    let g = required(
                        env.val(&name.name).cloned(),
                        span,
                        "a value ",
                        &format!("val {qual}"),
                    )?;
                    let (tps, spec_ty) = self.spec_val_type(type_params, ty)?;
                    let concrete = self.expand_abstract(&spec_ty);
                    let (vps, vty) = g
                        .view
                        .clone()
                        .unwrap_or((g.type_params.clone(), g.ty.clone()));
                    let expanded = self.expand_abstract(&vty);
                    let (_, _, inst) = self.instantiate(&vps, None, &expanded);
                    if self.inf.unify(&concrete, &inst).is_err() {
                        let d = Diagnostic::error(
                            span,
                            format!(
                                "value '{qual}' is specified as 'val {}: {}', but has type '{}'",
                                name.name,
                                self.show(&spec_ty),
                                self.show(&vty)
                            ),
                        );
                        let lifted = type_params.iter().find_map(|p| match p {
                            TypeParam::Type(id, l) if *l != Liftedness::Unlifted => Some(&id.name),
                            _ => None,
                        });
                        let d = match lifted {
                            Some(a) => d.with_note(format!(
                                "Module type specifies the lifted type parameter '{a}', which the definition does not allow (its own type parameters are not lifted)"
                            )),
                            None => d,
                        };
                        return Err(if self.defaulted.contains(&g.id) {
                            d.with_note(crate::env::default_note(&qual))
                        } else {
                            d
                        });
                    }
                    self.check_spec_uniqueness(&qual, &name.name, ty, g.id, &vty, span)?;
                    self.bind_size_val(&name.name, &spec_ty);
                    let view = if opaque {
                        Some((tps, spec_ty))
                    } else {
                        g.view.clone()
                    };
                    out.set_val(&name.name, Global { view, ..g });
                }
                Spec::Module { name, sig, .. } => {
                    let qual = qualified(path, &name.name);
                    let actual =
                        required(env.module(&name.name).cloned(), span, "a module ", &qual)?;
                    let s = self.eval_sig(sig)?;
                    let full = child(path, &name.name);
                    let m = self.match_module(&actual, &s, span, &full, refine, opaque)?;
                    self.mods.push((name.name.clone(), m.clone()));
                    out.set_mod(&name.name, m);
                }
                Spec::Include(mte, ispan) => {
                    let s = self.eval_sig(mte)?;
                    let Sig::Specs {
                        specs, refine: r2, ..
                    } = &*s
                    else {
                        return Err(Diagnostic::error(
                            *ispan,
                            "cannot include a parametric module type",
                        ));
                    };
                    let all = refinements(refine, path, r2);
                    self.match_specs(env, specs, &all, path, out, span, opaque)?;
                }
            }
        }
        Ok(())
    }

    /// A value matching `val name: te` may not consume a parameter the
    /// specification does not, nor return a non-unique value where the
    /// specification promises a unique one.
    fn check_spec_uniqueness(
        &self,
        qual: &str,
        name: &str,
        te: &TypeExp,
        id: FunId,
        actual_ty: &Type,
        span: Span,
    ) -> Res<()> {
        use crate::unique::UShape;
        let Some(actual) = self.fun_uniq.get(&id) else {
            return Ok(());
        };
        let (sps, sret) = UShape::of_fun_type(te);
        if sps.len() != actual.params.len() {
            return Ok(());
        }
        let bad_param = sps
            .iter()
            .zip(&actual.params)
            .any(|(s, a)| s.violated_by(a, true));
        if !bad_param && !sret.violated_by(&actual.ret, false) {
            return Ok(());
        }
        Err(Diagnostic::error(
            span,
            format!(
                "value '{qual}' is specified as 'val {name}: {}', but has type '{}': their uniqueness differs",
                self.source_line(te.span()),
                self.show_unique(actual_ty, &actual.params, &actual.ret)
            ),
        ))
    }

    /// Function type `t` with `*` on its parameters and result where
    /// `params` and `ret` say they are unique.
    fn show_unique(
        &self,
        t: &Type,
        params: &[crate::unique::UShape],
        ret: &crate::unique::UShape,
    ) -> String {
        use crate::unique::UShape;
        let star = |s: &UShape, t: &Type| {
            if *s == UShape::Unique && !matches!(t, Type::Prim(_)) {
                "*"
            } else {
                ""
            }
        };
        let mut out = String::new();
        let mut t = self.inf.zonk(t);
        for p in params {
            let Type::Arrow(a, r) = t else {
                return self.show(&t);
            };
            let shown = self.show(&a);
            if matches!(*a, Type::Arrow(..)) {
                out.push_str(&format!("({shown}) -> "));
            } else {
                out.push_str(&format!("{}{shown} -> ", star(p, &a)));
            }
            t = *r;
        }
        out.push_str(star(ret, &t));
        out.push_str(&self.show(&t));
        out
    }

    /// `type t 'a [n] = te` as a type name.
    pub fn type_name_of(&mut self, params: &[TypeParam], te: &TypeExp) -> Res<TypeName> {
        no_duplicate_params(params)?;
        let mark = self.types.len();
        let mut ps = vec![];
        // Size parameters are named by their position in the type scope
        // while the definition is checked, then by a number of their own.
        let mut numbers = vec![];
        for p in params {
            match p {
                TypeParam::Type(id, _) => {
                    let tp = self.new_tparam(&id.name);
                    ps.push(AbbrevParam::Type(tp));
                    self.types
                        .push((id.name.clone(), TypeName::Type(Type::Param(tp))));
                }
                TypeParam::Size(id) => {
                    let n = self.fresh_abbrev_size();
                    numbers.push((self.types.len() as u32, n));
                    ps.push(AbbrevParam::Size(n));
                    self.types.push((id.name.clone(), TypeName::Size));
                }
            }
        }
        let def = self.type_exp(te);
        self.types.truncate(mark);
        let def = renumber_sizes(&def?, &numbers);
        // Every size parameter must appear in the definition.
        let mut named = vec![];
        parad_syntax::visit::walk_type_mut(&mut te.clone(), &mut |e| {
            if let parad_syntax::ast::ExpKind::Var(q) = &e.kind {
                if q.quals.is_empty() {
                    named.push(q.name.clone());
                }
            }
        });
        for p in params {
            if let TypeParam::Size(id) = p {
                if !named.contains(&id.name) {
                    return Err(Diagnostic::error(
                        id.span,
                        format!(
                            "Size parameter \"[{}]\" unused in the type's definition.",
                            id.name
                        ),
                    ));
                }
            }
        }
        Ok(if ps.is_empty() {
            TypeName::Type(def)
        } else {
            TypeName::Abbrev(ps, def)
        })
    }

    fn fresh_abbrev_size(&mut self) -> u32 {
        self.abbrev_sizes += 1;
        // Above any position in the type scope.
        (1 << 30) + self.abbrev_sizes
    }

    /// Replaces abstract types by their representations.
    pub fn expand_abstract(&self, t: &Type) -> Type {
        if self.abstract_defs.is_empty() {
            return t.clone();
        }
        let mut t = t.clone();
        // Representations may be abstract types of earlier ascriptions.
        for _ in 0..64 {
            let changed = std::cell::Cell::new(false);
            let next = t.subst(&|p| {
                let d = self.abstract_defs.get(&p).cloned();
                changed.set(changed.get() || d.is_some());
                d
            });
            t = next;
            if !changed.get() {
                break;
            }
        }
        t
    }

    fn same_type_name(&mut self, a: &TypeName, b: &TypeName) -> bool {
        let (a, b) = match (a, b) {
            (TypeName::Type(x), TypeName::Type(y)) => (x.clone(), y.clone()),
            (TypeName::Abbrev(pa, x), TypeName::Abbrev(pb, y)) if pa.len() == pb.len() => {
                let mut map = vec![];
                let mut sizes = vec![];
                for (p, q) in pa.iter().zip(pb) {
                    match (p, q) {
                        (AbbrevParam::Type(p), AbbrevParam::Type(q)) => map.push((*q, *p)),
                        (AbbrevParam::Size(m), AbbrevParam::Size(n)) => sizes.push((*n, *m)),
                        _ => return false,
                    }
                }
                let y = renumber_sizes(y, &sizes);
                let y = y.subst(&|p| {
                    map.iter()
                        .find(|(q, _)| *q == p)
                        .map(|(_, r)| Type::Param(*r))
                });
                (x.clone(), y)
            }
            (TypeName::Size, TypeName::Size) => return true,
            _ => return false,
        };
        let (a, b) = (self.expand_abstract(&a), self.expand_abstract(&b));
        self.inf.unify(&a, &b).is_ok()
    }

    fn show_type_name(&self, t: &TypeName) -> String {
        match t {
            TypeName::Type(t) | TypeName::Abbrev(_, t) => self.show(t),
            TypeName::Size => "a size".to_string(),
        }
    }

    fn has_function(&self, t: &Type) -> bool {
        match self.inf.zonk(t) {
            Type::Arrow(..) => true,
            Type::Array(e, _) => self.has_function(&e),
            Type::Tuple(ts) => ts.iter().any(|t| self.has_function(t)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.has_function(t)),
            Type::Sum(cs) => cs
                .iter()
                .any(|(_, ts)| ts.iter().any(|t| self.has_function(t))),
            _ => false,
        }
    }
}

/// A value specification's parameters have distinct names and no
/// anonymous sizes (`[]`), which would leave the sizes a caller's
/// arguments must have unsaid.
fn spec_type_shape<'a>(val: &str, te: &'a TypeExp, names: &mut Vec<&'a str>) -> Res<()> {
    if let TypeExp::Arrow(name, a, b, _) = te {
        if let Some(n) = name {
            if names.contains(&n.name.as_str()) {
                return Err(Diagnostic::error(
                    n.span,
                    format!(
                        "parameter name '{}' appears twice in the specification of '{val}'",
                        n.name
                    ),
                ));
            }
            names.push(&n.name);
        }
        if let Some(span) = anonymous_size(a) {
            return Err(Diagnostic::error(
                span,
                format!(
                    "sizes of parameters in the specification of '{val}' must be non-anonymous: name them ('val {val} [n]: [n]…')"
                ),
            ));
        }
        return spec_type_shape(val, b, names);
    }
    Ok(())
}

/// The first `[]` of a type expression, outside function types.
fn anonymous_size(te: &TypeExp) -> Option<Span> {
    match te {
        TypeExp::Array(d, t, _) => match &**d {
            parad_syntax::ast::SizeExp::Any(s) => Some(*s),
            _ => anonymous_size(t),
        },
        TypeExp::Tuple(ts, _) => ts.iter().find_map(anonymous_size),
        TypeExp::Record(fs, _) => fs.iter().find_map(|(_, t)| anonymous_size(t)),
        TypeExp::Unique(t, _) => anonymous_size(t),
        _ => None,
    }
}

fn no_duplicate_params(params: &[TypeParam]) -> Res<()> {
    for (i, p) in params.iter().enumerate() {
        let id = match p {
            TypeParam::Type(id, _) | TypeParam::Size(id) => id,
        };
        if let Some(prev) = params[..i].iter().find_map(|q| match q {
            TypeParam::Type(j, _) | TypeParam::Size(j) if j.name == id.name => Some(j),
            _ => None,
        }) {
            return Err(Diagnostic::error(
                id.span,
                format!("Duplicate type parameter '{}'", id.name),
            )
            .with_label(prev.span, "previously declared here"));
        }
    }
    Ok(())
}

/// An abstract type specification: its liftedness and parameters.
type Abstract = (Liftedness, Vec<TypeParam>);

/// Whether a refinement's parameters are those of the specification:
/// as many, of the same kinds and liftedness.
fn same_params(spec: &[TypeParam], refined: &[TypeParam]) -> bool {
    spec.len() == refined.len()
        && spec.iter().zip(refined).all(|(a, b)| match (a, b) {
            (TypeParam::Size(_), TypeParam::Size(_)) => true,
            (TypeParam::Type(_, l), TypeParam::Type(_, m)) => l == m,
            _ => false,
        })
}

fn show_params(ps: &[TypeParam]) -> String {
    let s: Vec<String> = ps
        .iter()
        .map(|p| match p {
            TypeParam::Size(id) => format!("[{}]", id.name),
            TypeParam::Type(id, l) => format!("'{}{}", lifted_mark(*l), id.name),
        })
        .collect();
    if s.is_empty() {
        "none".to_string()
    } else {
        s.join(" ")
    }
}

fn lifted_mark(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "",
        Liftedness::SizeLifted => "~",
        Liftedness::Lifted => "^",
    }
}

fn lift_rank(l: Liftedness) -> u8 {
    match l {
        Liftedness::Unlifted => 0,
        Liftedness::SizeLifted => 1,
        Liftedness::Lifted => 2,
    }
}

/// `t` with `Dim::AbbrevParam(from)` renamed `Dim::AbbrevParam(to)`.
fn renumber_sizes(t: &Type, map: &[(u32, u32)]) -> Type {
    fn go(d: &Dim, map: &[(u32, u32)]) -> Dim {
        match d {
            Dim::AbbrevParam(p) => match map.iter().find(|(q, _)| q == p) {
                Some((_, n)) => Dim::AbbrevParam(*n),
                None => d.clone(),
            },
            Dim::Op(o, a, b) => Dim::Op(*o, Box::new(go(a, map)), Box::new(go(b, map))),
            d => d.clone(),
        }
    }
    if map.is_empty() {
        return t.clone();
    }
    t.map_dims(&|d| go(d, map))
}

fn type_arity(t: &TypeName) -> usize {
    match t {
        TypeName::Abbrev(ps, _) => ps.len(),
        _ => 0,
    }
}

/// Whether abbreviation size parameter `n` is the size of an array in `t`
/// (not only part of a size expression or inside a function type).
fn constructive(t: &Type, n: u32) -> bool {
    match t {
        Type::Array(e, ds) => ds.contains(&Dim::AbbrevParam(n)) || constructive(e, n),
        Type::Tuple(ts) => ts.iter().any(|t| constructive(t, n)),
        Type::Record(fs) => fs.iter().any(|(_, t)| constructive(t, n)),
        Type::Sum(cs) => cs
            .iter()
            .any(|(_, ts)| ts.iter().any(|t| constructive(t, n))),
        _ => false,
    }
}
