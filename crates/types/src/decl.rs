//! Declarations: functions and constants (`def`, `entry`), type
//! abbreviations, and the module-level ones (modules, module types,
//! `open`, `import`, `local`), which add to the structure being checked.

use crate::env::{Checker, Global, Res, TypeName};
use crate::modules::{ModEnv, Module};
use crate::tast::*;
use crate::EntryPoint;
use parad_base::Diagnostic;
use parad_syntax::ast::{Decl, Liftedness, TypeDecl, TypeParam, ValDecl, ValKind};
use std::rc::Rc;

impl Checker {
    /// Checks one declaration of a structure (or file) and, when `export`,
    /// adds what it defines to `out`.
    pub(crate) fn check_decl(&mut self, d: &Decl, out: &mut ModEnv, export: bool) -> Res<()> {
        // Unknown types in a message are numbered from 1 within each declaration.
        self.shown_vars.borrow_mut().clear();
        match d {
            Decl::Val(v) => {
                let start = std::time::Instant::now();
                let g = self.check_val(v);
                if !self.in_prelude {
                    self.check_time += start.elapsed();
                }
                let g = g?;
                if export {
                    out.set_val(&v.name.name, g);
                }
            }
            Decl::Type(t) => {
                let tn = self.check_type_decl(t)?;
                if export {
                    out.set_type(&t.name.name, tn);
                    out.set_lifted(&t.name.name, t.liftedness);
                }
            }
            Decl::Module(m) => {
                let v = self.check_mod_decl(m)?;
                self.mods.push((m.name.name.clone(), v.clone()));
                if export {
                    out.set_mod(&m.name.name, v);
                }
            }
            Decl::ModType(m) => {
                let s = self.eval_sig(&m.def)?;
                self.sigs.push((m.name.name.clone(), s.clone()));
                if export {
                    out.set_sig(&m.name.name, s);
                }
            }
            Decl::Open(me, span) => {
                let env = match self.eval_mod(me)? {
                    Module::Struct(env) => env,
                    Module::Prim(p) => Rc::new(self.prim_module_env(p, *span)),
                    Module::Functor(_) => {
                        return Err(Diagnostic::error(*span, "cannot open a parametric module"))
                    }
                };
                self.open_env(&env);
                if export {
                    out.extend(&env);
                }
            }
            Decl::Import(path, span) => {
                let env = self.import(path, *span)?;
                self.open_env(&env);
            }
            Decl::Local(d, _) => self.check_decl(d, out, false)?,
        }
        Ok(())
    }

    /// `open f64`: a built-in numeric module's type `t` (its functions
    /// stay reachable through the module's name only).
    fn prim_module_env(&mut self, p: parad_base::PrimType, _span: parad_base::Span) -> ModEnv {
        let mut env = ModEnv::default();
        env.set_type("t", TypeName::Type(Type::Prim(p)));
        env
    }

    /// The name of a size-lifted type (`type~`) that type expression `te`
    /// refers to, if any; `tparams` are the type parameters in scope, which
    /// shadow types of the same name.
    fn size_lifted_in(&self, te: &parad_syntax::ast::TypeExp, tparams: &[&str]) -> Option<String> {
        use parad_syntax::ast::{TypeArg, TypeExp};
        match te {
            TypeExp::Named { name, args, span } => {
                let here = if name.quals.is_empty() {
                    if tparams.contains(&name.name.as_str()) {
                        return None;
                    }
                    let at = self.types.iter().rposition(|(n, _)| *n == name.name);
                    at.is_some_and(|i| self.size_lifted_types.contains(&(i, name.name.clone())))
                } else {
                    matches!(self.qualifier(&name.quals, *span),
                        Ok(Some(crate::modules::Module::Struct(env)))
                            if env.liftedness(&name.name) == Liftedness::SizeLifted)
                };
                if here {
                    return Some(name.full());
                }
                args.iter().find_map(|a| match a {
                    TypeArg::Type(t) => self.size_lifted_in(t, tparams),
                    TypeArg::Size(_) => None,
                })
            }
            TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) | TypeExp::Exists(_, t, _) => {
                self.size_lifted_in(t, tparams)
            }
            TypeExp::Tuple(ts, _) => ts.iter().find_map(|t| self.size_lifted_in(t, tparams)),
            TypeExp::Record(fs, _) => fs.iter().find_map(|(_, t)| self.size_lifted_in(t, tparams)),
            // A function type may be lifted, which is checked separately.
            TypeExp::Arrow(..) => None,
            TypeExp::Sum(cs, _) => cs
                .iter()
                .find_map(|(_, ts)| ts.iter().find_map(|t| self.size_lifted_in(t, tparams))),
        }
    }

    fn check_type_decl(&mut self, t: &TypeDecl) -> Res<TypeName> {
        if let Some(span) = anonymous_in_arrow(&t.def, false) {
            return Err(Diagnostic::error(
                span,
                "Type abbreviation contains an anonymous size not used constructively as an array size [anonymous-nonconstructive].",
            )
            .with_note("an anonymous size ('[]') in a function type is not the size of any array the abbreviation's values hold; name it with a size parameter"));
        }
        let binding = self.type_name_of(&t.params, &t.def)?;
        if self.mod_path.is_empty() && !t.params.iter().any(|p| matches!(p, TypeParam::Type(..))) {
            self.type_defs.push((t.name.name.clone(), t.def.clone()));
        }
        if let Some((name, l)) = t.params.iter().find_map(|p| match p {
            TypeParam::Type(id, l)
                if *l != Liftedness::Unlifted && t.liftedness == Liftedness::Unlifted =>
            {
                Some((id, l))
            }
            TypeParam::Type(id, Liftedness::Lifted) if t.liftedness == Liftedness::SizeLifted => {
                Some((id, &Liftedness::Lifted))
            }
            _ => None,
        }) {
            if array_of_param(&t.def, &name.name) {
                let kind = if *l == Liftedness::Lifted {
                    "lifted"
                } else {
                    "size-lifted"
                };
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "Cannot create array with elements of {kind} type '{}'.",
                        name.name
                    ),
                )
                .with_note(format!("type parameter '{}' is declared {kind}", name.name)));
            }
            let what = if *l == Liftedness::Lifted {
                "functions"
            } else {
                "size-lifted types"
            };
            let kind = if t.liftedness == Liftedness::Unlifted {
                "Non-lifted"
            } else {
                "Size-lifted"
            };
            return Err(Diagnostic::error(
                name.span,
                format!("{kind} type abbreviations may not contain {what}."),
            )
            .with_note(format!("type parameter '{}' may stand for one", name.name)));
        }
        if t.liftedness == Liftedness::Unlifted {
            let tparams: Vec<&str> = t
                .params
                .iter()
                .filter_map(|p| match p {
                    TypeParam::Type(id, _) => Some(id.name.as_str()),
                    TypeParam::Size(_) => None,
                })
                .collect();
            if let Some(inner) = self.size_lifted_in(&t.def, &tparams) {
                return Err(Diagnostic::error(
                    t.span,
                    "Non-size-lifted type abbreviations may not contain size-lifted types.",
                )
                .with_note(format!(
                    "type '{inner}' is size-lifted; declare this one as 'type~ {}'",
                    t.name.name
                )));
            }
            if let TypeName::Type(ty) | TypeName::Abbrev(_, ty) = &binding {
                if contains_arrow(ty) {
                    return Err(Diagnostic::error(
                        t.span,
                        "Non-lifted type abbreviations may not contain functions.",
                    )
                    .with_note(format!(
                        "declare it as 'type^ {}' to allow functions",
                        t.name.name
                    )));
                }
            }
        }
        self.types.push((t.name.name.clone(), binding.clone()));
        if t.liftedness == Liftedness::Lifted {
            self.lifted_types
                .push((self.types.len() - 1, t.name.name.clone()));
        }
        if t.liftedness == Liftedness::SizeLifted {
            self.size_lifted_types
                .push((self.types.len() - 1, t.name.name.clone()));
        }
        Ok(binding)
    }

    fn check_val(&mut self, v: &ValDecl) -> Res<Global> {
        // `&&` and `||` short-circuit: they are syntax, not functions.
        if matches!(v.name.name.as_str(), "&&" | "||") && !self.in_prelude {
            return Err(Diagnostic::error(
                v.name.span,
                format!(
                    "'{}' is a built-in operator and cannot be redefined",
                    v.name.name
                ),
            ));
        }
        let var_mark = self.vars.len();
        let (smark, tmark) = (self.scope.len(), self.types.len());
        self.inf.level = 1;
        let own_id = FunId(self.funs.len() as u32);
        // A function may call itself; a constant's own name refers to an
        // earlier definition (`def x = x` in a module).
        if !v.params.is_empty() {
            self.rec_pending = Some((v.name.name.clone(), own_id));
        }
        self.user_holes.clear();
        let mut r = self.check_fun_parts(&v.type_params, &v.params, v.ret.as_ref(), &v.body);
        let mode = *self
            .automap
            .get_or_insert_with(crate::automap::Mode::from_env);
        if !self.in_prelude && mode != crate::automap::Mode::Off {
            r = self.automap_retry(v, r, mode, own_id, (smark, tmark, var_mark));
        }
        self.rec_pending = None;
        let recursive = self.rec_fun.take().is_some_and(|r| r.used);
        self.fun_sizes.remove(&own_id);
        self.inf.level = 0;
        self.scope.truncate(smark);
        self.types.truncate(tmark);
        let mut parts = r?;
        self.params_sized_outside_body(&parts, var_mark)?;
        // A hole's type must have known sizes: a value of it could not be
        // made otherwise (`f32.sum ???`).
        // An unknown size (`[]`) is as ambiguous, except in a function's
        // result, which may be existential.
        for (span, t, why) in std::mem::take(&mut self.user_holes) {
            let t = self.inf.zonk(&t);
            let any_too = !matches!(t, Type::Arrow(..));
            let mut open = false;
            t.each_dim(&mut |d| {
                open |= match self.inf.zonk_dim(d) {
                    Dim::Infer(_) => true,
                    Dim::Any => any_too,
                    _ => false,
                }
            });
            if open {
                let why = why.map_or(String::new(), |w| format!(", arising from its {w}"));
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "Ambiguous size in the type '{}' of this hole{why}: nothing determines it \
                         (a hole cannot be size-polymorphic).",
                        self.show(&t)
                    ),
                )
                .with_note("give the hole a type with known sizes (??? : [n]t)"));
            }
        }
        if !recursive && !self.in_prelude {
            self.implicit_size_params(&mut parts);
        }
        let fty = Type::arrows(
            parts.params.iter().map(|p| p.ty()).collect(),
            parts.ret.clone(),
        );
        let mut type_params = parts.type_params.clone();
        type_params.extend(self.generalise(&fty, 0));
        // Overloaded types left in the signature are defaulted (to i32 or
        // f64) when finishing, which later uses may not expect.
        let mut fv = vec![];
        self.inf.free_vars(&fty, &mut fv);
        let defaulted = fv.iter().any(|v| !self.inf.class_of(*v).is_any());
        for p in &mut parts.params {
            self.finish_pat(p)?;
        }
        // Its result has an existential size if the body makes one that
        // the result keeps (`filter`) or the type says so (`?[k].[k]t`).
        let mut existential = matches!(&v.ret, Some(parad_syntax::ast::TypeExp::Exists(..)));
        self.inf.zonk(&parts.ret).each_dim(&mut |d| {
            existential |= self.inf.close_dim(d) == Dim::Any
                && !matches!(
                    self.inf.zonk_dim(d),
                    Dim::Infer(_) | Dim::Any | Dim::AbbrevParam(_)
                )
        });
        let existential_ret = match parts.ret_pattern.take() {
            Some(p) if v.ret.is_some() => p,
            _ => self.inf.zonk(&parts.ret),
        };
        let ret = self.resolve(&parts.ret, v.span)?;
        // The prelude's declared `[]` results (`filter`) are existential.
        if self.in_prelude && v.ret.is_some() {
            ret.each_dim(&mut |d| existential |= *d == Dim::Any);
        }
        // `def foo [n] = …` is instantiated at each use with `n` from the
        // context: its value may not have sizes that `n` does not give.
        // Only an inferred type is checked: a declared one may have sizes
        // that the checker does not model (`[plus a b]`).
        if v.params.is_empty() && !parts.size_params.is_empty() && v.ret.is_none() {
            let mut unknown = false;
            ret.each_dim(&mut |d| unknown |= *d == Dim::Any);
            if unknown {
                return Err(Diagnostic::error(
                    v.name.span,
                    format!(
                        "The size-polymorphic value binding \"{}\" cannot have a type with unknown sizes: '{}'.",
                        v.name.name,
                        self.show_sized(&ret)
                    ),
                )
                .with_note("give every size of its type with its size parameters, or make it a function"));
            }
        }
        self.finish_exp(&mut parts.body)?;
        self.show_rep_sizes(v);
        self.finish_vars(var_mark)?;
        let ty = self.resolve_keep_abstract(&fty, v.span)?;
        let (scheme, ty) = self.size_scheme(&parts.size_params, &parts.params, &ty, |_| false);

        if v.kind == ValKind::Entry && !self.mod_path.is_empty() {
            return Err(Diagnostic::error(
                v.name.span,
                format!(
                    "Entry points may only be declared at the top level of a file, not in a module ('{}')",
                    v.name.name
                ),
            )
            .with_note("declare it with 'def' here and an entry point outside that calls it"));
        }
        let is_entry = (v.kind == ValKind::Entry || v.name.name == "main")
            && !self.in_import
            && self.mod_path.is_empty();
        if is_entry && !self.in_prelude {
            if !type_params.is_empty() {
                return Err(Diagnostic::error(
                    v.name.span,
                    format!(
                        "Entry point functions may not be polymorphic, but '{}' is.",
                        v.name.name
                    ),
                ));
            }
            // A result of function type adds parameters (Futhark eta-expands
            // entry points such as `def main y = vjp (f y)`).
            let mut params: Vec<Type> = parts.params.iter().map(|p| p.ty()).collect();
            let mut ret = ret.clone();
            while let Type::Arrow(a, b) = ret {
                params.push(*a);
                ret = *b;
            }
            if params.iter().any(contains_arrow) || contains_arrow(&ret) {
                return Err(Diagnostic::error(
                    v.name.span,
                    format!(
                        "Entry point functions may not be higher-order: '{}' takes or returns functions",
                        v.name.name
                    ),
                ));
            }
            if params.iter().any(contains_acc) || contains_acc(&ret) {
                return Err(Diagnostic::error(
                    v.name.span,
                    format!(
                        "entry point '{}' cannot take or return accumulators",
                        v.name.name
                    ),
                ));
            }
            let show = |t: &Type| self.show(t);
            let params: Vec<String> = params.iter().map(show).collect();
            let results = match &ret {
                Type::Tuple(ts) if !ts.is_empty() => ts.iter().map(show).collect(),
                t => vec![show(t)],
            };
            let api = self.api_entry(v, &ty);
            self.entries.push(EntryPoint {
                name: v.name.name.clone(),
                params,
                results,
                span: v.span,
                api,
            });
        }

        let id = FunId(self.funs.len() as u32);
        debug_assert_eq!(id, own_id, "a function was added while checking another");
        if recursive {
            self.check_recursion(v, &parts.params, &ret, &parts.type_params, &parts.body, id)?;
        }
        if defaulted {
            self.defaulted.insert(id);
        }
        if existential {
            self.existential_funs.insert(id, existential_ret);
        }
        let mut usig = crate::unique::USig {
            params: v.params.iter().map(crate::unique::UShape::of_pat).collect(),
            ret: v
                .ret
                .as_ref()
                .map(crate::unique::UShape::of_type)
                .unwrap_or(crate::unique::UShape::Shared),
            globals: vec![],
            inferred: None,
            declared_ret: v.ret.is_some(),
            fn_params: v
                .params
                .iter()
                .map(crate::unique::UShape::fn_param)
                .collect(),
        };
        // A recursive call sees the signature as declared.
        self.fun_uniq.insert(id, usig.clone());
        if !self.in_prelude {
            self.check_uniqueness(
                &parts.params,
                &mut usig,
                &parts.body,
                &v.name.name,
                v.ret.as_ref(),
            )?;
        }
        self.fun_uniq.insert(id, usig);
        if self.in_prelude && v.name.name == "reduce" {
            self.reduce_fun = Some(id);
        }
        if self.in_prelude && v.name.name == "replicate" {
            self.replicate_fun = Some(id);
        }
        if !scheme.vars.is_empty() {
            self.fun_sizes.insert(id, scheme);
        }
        self.funs.push(TFun {
            id,
            name: self.qualified_fun_name(&v.name.name),
            type_params: type_params.clone(),
            size_params: parts.size_params,
            size_sources: parts.size_sources,
            params: parts.params,
            ret,
            body: parts.body,
            span: v.span,
            entry: is_entry && !self.in_prelude,
            prelude: self.in_prelude,
            recursive,
        });
        let g = Global {
            id,
            type_params,
            ty,
            view: None,
        };
        self.globals.insert(v.name.name.clone(), g.clone());
        Ok(g)
    }
}

fn contains_arrow(t: &Type) -> bool {
    match t {
        Type::Arrow(..) => true,
        Type::Array(e, _) => contains_arrow(e),
        Type::Tuple(ts) => ts.iter().any(contains_arrow),
        Type::Record(fs) => fs.iter().any(|(_, t)| contains_arrow(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(contains_arrow)),
        _ => false,
    }
}

fn contains_acc(t: &Type) -> bool {
    match t {
        Type::Acc(..) => true,
        Type::Array(e, _) => contains_acc(e),
        Type::Tuple(ts) => ts.iter().any(contains_acc),
        Type::Record(fs) => fs.iter().any(|(_, t)| contains_acc(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(contains_acc)),
        _ => false,
    }
}

impl Checker {
    /// AUTOMAP for a definition: on one that did not check (or, in
    /// [`Mode::Always`], on every one), elaborate it and check the result.
    fn automap_retry(
        &mut self,
        v: &ValDecl,
        first: Res<crate::exp::FunParts>,
        mode: crate::automap::Mode,
        own_id: FunId,
        (smark, tmark, vmark): (usize, usize, usize),
    ) -> Res<crate::exp::FunParts> {
        use crate::automap::Elaborated;
        if first.is_ok() && mode != crate::automap::Mode::Always {
            return first;
        }
        self.scope.truncate(smark);
        self.types.truncate(tmark);
        let mut elab = self.automap_val(v, true);
        if let Ok(parts) = first {
            if !matches!(elab, Elaborated::Nothing) {
                // A whole-array comparison read as a scalar one (see
                // `automap::infer`): with array equality, the definition
                // must be left as it is.
                elab = self.automap_val(v, false);
            }
            // `Always`: the definition checked as written, so AUTOMAP must
            // leave it as it is.
            return match elab {
                Elaborated::Nothing => Ok(parts),
                Elaborated::Body(b, _) => Err(Diagnostic::error(
                    v.span,
                    format!(
                        "AUTOMAP elaborated '{}', which checks as written (a bug): {}",
                        v.name.name,
                        parad_syntax::sexp::exp(&b)
                    ),
                )),
                Elaborated::Error(d) => Err(Diagnostic {
                    message: format!(
                        "AUTOMAP rejected '{}', which checks as written (a bug): {}",
                        v.name.name, d.message
                    ),
                    ..d
                }),
            };
        }
        let first = first.err().expect("failed above");
        match elab {
            Elaborated::Nothing => Err(first),
            Elaborated::Error(d) => Err(d),
            Elaborated::Body(body, sizes) => {
                self.rep_size_spans = sizes.into_iter().collect();
                self.rep_sizes.clear();
                self.forget_attempt(smark, tmark, vmark);
                if !v.params.is_empty() {
                    self.rec_pending = Some((v.name.name.clone(), own_id));
                }
                self.rec_fun = None;
                let r = self.check_fun_parts(&v.type_params, &v.params, v.ret.as_ref(), &body);
                match r {
                    Ok(parts) => {
                        self.elaborated.push((v.body.id, *body));
                        self.automap_first = Some(first);
                        Ok(parts)
                    }
                    // The elaboration does not check either: the error as
                    // written, and what went wrong with implicit maps.
                    Err(d) => Err(first.with_note(format!("with implicit maps: {}", d.message))),
                }
            }
        }
    }
}

impl Checker {
    /// The C API of the entry point `v` of type `ty` (abstract types kept).
    fn api_entry(&self, v: &ValDecl, ty: &Type) -> crate::api::ApiEntry {
        use crate::api::{is_unique, pat_parts, ApiBuilder, ApiEntry, ApiParam};
        let expand = |t: &Type| self.expand_abstract(t);
        let param_name = |p: TypeParamId| self.tparam_names[p.0 as usize].clone();
        let def = |n: &str| {
            self.type_defs
                .iter()
                .rev()
                .find(|(m, _)| m == n)
                .map(|(_, te)| te)
        };
        let b = ApiBuilder {
            expand: &expand,
            param_name: &param_name,
            type_def: &def,
        };
        let mut params = vec![];
        let mut t = ty;
        let mut k = 0;
        // The written type of parameters beyond the patterns: the domains
        // of a written function-typed result (`entry f : t1 -> t2 = id`).
        let mut ret_te = v.ret.as_ref();
        while let Type::Arrow(a, r) = t {
            let (name, te) = match v.params.get(k) {
                Some(p) => pat_parts(p),
                None => match ret_te.map(crate::api::strip_unique) {
                    Some(parad_syntax::ast::TypeExp::Arrow(n, dom, cod, _)) => {
                        ret_te = Some(cod);
                        (n.as_ref().map(|i| i.name.clone()), Some(&**dom))
                    }
                    _ => {
                        ret_te = None;
                        (None, None)
                    }
                },
            };
            params.push(ApiParam {
                name,
                ty: b.build(te, a),
                unique: te.is_some_and(is_unique),
            });
            k += 1;
            t = r;
        }
        ApiEntry {
            params,
            result: b.build(ret_te, t),
            result_unique: ret_te.is_some_and(is_unique),
            attrs: v.attrs.iter().map(crate::api::attr_text).collect(),
            doc: v.doc.clone(),
        }
    }
}

/// Whether type expression `te` has an array whose elements are the type
/// parameter `param` (`[]a`).
fn array_of_param(te: &parad_syntax::ast::TypeExp, param: &str) -> bool {
    use parad_syntax::ast::{TypeArg, TypeExp};
    match te {
        TypeExp::Array(_, elem, _) => {
            matches!(&**elem, TypeExp::Named { name, args, .. }
                if name.quals.is_empty() && name.name == param && args.is_empty())
                || array_of_param(elem, param)
        }
        TypeExp::Named { args, .. } => args.iter().any(|a| match a {
            TypeArg::Type(t) => array_of_param(t, param),
            TypeArg::Size(_) => false,
        }),
        TypeExp::Tuple(ts, _) => ts.iter().any(|t| array_of_param(t, param)),
        TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| array_of_param(t, param)),
        TypeExp::Unique(t, _) | TypeExp::Exists(_, t, _) => array_of_param(t, param),
        TypeExp::Arrow(_, a, b, _) => array_of_param(a, param) || array_of_param(b, param),
        TypeExp::Sum(cs, _) => cs
            .iter()
            .any(|(_, ts)| ts.iter().any(|t| array_of_param(t, param))),
    }
}

/// The first anonymous size (`[]`) of `te` inside a function type
/// (`under_arrow`: `te` is part of one), if any.
fn anonymous_in_arrow(
    te: &parad_syntax::ast::TypeExp,
    under_arrow: bool,
) -> Option<parad_base::Span> {
    use parad_syntax::ast::{SizeExp, TypeArg, TypeExp};
    match te {
        TypeExp::Array(size, elem, _) => match &**size {
            SizeExp::Any(span) if under_arrow => Some(*span),
            _ => anonymous_in_arrow(elem, under_arrow),
        },
        TypeExp::Named { args, .. } => args.iter().find_map(|a| match a {
            TypeArg::Type(t) => anonymous_in_arrow(t, under_arrow),
            TypeArg::Size(SizeExp::Any(span)) if under_arrow => Some(*span),
            TypeArg::Size(_) => None,
        }),
        TypeExp::Tuple(ts, _) => ts.iter().find_map(|t| anonymous_in_arrow(t, under_arrow)),
        TypeExp::Record(fs, _) => fs
            .iter()
            .find_map(|(_, t)| anonymous_in_arrow(t, under_arrow)),
        TypeExp::Unique(t, _) | TypeExp::Exists(_, t, _) => anonymous_in_arrow(t, under_arrow),
        TypeExp::Arrow(_, a, b, _) => {
            anonymous_in_arrow(a, true).or_else(|| anonymous_in_arrow(b, true))
        }
        TypeExp::Sum(cs, _) => cs
            .iter()
            .find_map(|(_, ts)| ts.iter().find_map(|t| anonymous_in_arrow(t, under_arrow))),
    }
}

impl Checker {
    /// A parameter's type cannot name a size that the body makes (`def f
    /// xs = zip xs (iota xs[0])`, or a loop parameter's changing size):
    /// callers could not know it. Sizes made since `var_mark` (this
    /// function's) are the body's.
    fn params_sized_outside_body(&self, parts: &crate::exp::FunParts, var_mark: usize) -> Res<()> {
        let mut vars = vec![];
        for p in &parts.params {
            p.vars(&mut vars);
        }
        for of in vars {
            let info = &self.vars[of.0 as usize];
            let mut sizes = vec![];
            self.inf
                .zonk(&info.ty)
                .each_dim(&mut |d| self.inf.zonk_dim(d).vars(&mut sizes));
            let Some(v) = sizes
                .into_iter()
                .find(|v| v.0 as usize >= var_mark && self.inf.unknowns.contains(&v.0))
            else {
                continue;
            };
            let loop_variant = matches!(
                self.unknown_sources.get(&v),
                Some((crate::env::UnknownSource::Loop, _))
            );
            let what = if loop_variant {
                "Loop-variant size"
            } else {
                "A size made inside the function's body"
            };
            return Err(Diagnostic::error(
                info.span,
                format!(
                    "{what} \"{}\" would be in the type of parameter \"{}\", which callers cannot know.",
                    self.vars[v.0 as usize].name,
                    info.name,
                ),
            )
            .with_note(self.explain_unknowns(&[&Dim::Var(v)])));
        }
        Ok(())
    }

    /// A size of a parameter's type that nothing determined (`xs` of
    /// `def f xs is = map (\i -> xs[i]) is`, or `[]` in a parameter's
    /// type) becomes a size parameter of the function, read off the
    /// argument, as in Futhark: the function's type then says which sizes
    /// are equal (`f : [n]t -> [m]i64 -> [m]t`).
    fn implicit_size_params(&mut self, parts: &mut crate::exp::FunParts) {
        let mut vars = vec![];
        for p in &parts.params {
            p.vars(&mut vars);
        }
        let mut made: Vec<(u32, VarId)> = vec![];
        for of in vars {
            let t = self.inf.zonk(&self.vars[of.0 as usize].ty.clone());
            let mut found = vec![];
            infer_dims(&self.inf, &t, &mut vec![], 0, &mut found);
            for (x, path, dim) in found {
                let size = match made.iter().find(|(y, _)| *y == x) {
                    Some((_, s)) => *s,
                    None => {
                        let name = self.vars[of.0 as usize].name.clone();
                        let span = self.vars[of.0 as usize].span;
                        let s = self.new_var(&format!("len({name})"), Type::i64(), span);
                        self.inf.set_dim(x, Dim::Var(s));
                        parts.size_params.push(s);
                        made.push((x, s));
                        s
                    }
                };
                parts.size_sources.push(SizeSource {
                    size,
                    of,
                    path,
                    dim,
                });
            }
        }
    }
}

/// The size variables left open in `t` (zonked), with where each is: the
/// path to its array and the dimension there (as in [`SizeSource`]).
fn infer_dims(
    inf: &crate::unify::Infer,
    t: &Type,
    path: &mut Vec<String>,
    dim: u32,
    out: &mut Vec<(u32, Vec<String>, u32)>,
) {
    match t {
        Type::Array(elem, dims) => {
            for (k, d) in dims.iter().enumerate() {
                if let Dim::Infer(x) = inf.zonk_dim(d) {
                    out.push((x, path.clone(), dim + k as u32));
                }
            }
            infer_dims(inf, elem, path, dim + dims.len() as u32, out);
        }
        Type::Tuple(ts) => {
            for (i, t) in ts.iter().enumerate() {
                path.push(i.to_string());
                infer_dims(inf, t, path, dim, out);
                path.pop();
            }
        }
        Type::Record(fs) => {
            for (n, t) in fs {
                path.push(n.clone());
                infer_dims(inf, t, path, dim, out);
                path.pop();
            }
        }
        _ => {}
    }
}
