//! Top-level declarations: functions and constants (`def`, `entry`),
//! type abbreviations; modules are rejected with a located error.

use crate::env::{AbbrevParam, Checker, Global, Res, TypeName};
use crate::tast::*;
use crate::typeexp::unsupported_modules;
use crate::EntryPoint;
use parad_base::Diagnostic;
use parad_syntax::ast::{Decl, TypeDecl, TypeParam, ValDecl, ValKind};

impl Checker {
    pub(crate) fn check_decl(&mut self, d: &Decl, entries: &mut Vec<EntryPoint>) -> Res<()> {
        match d {
            Decl::Val(v) => self.check_val(v, entries),
            Decl::Type(t) => self.check_type_decl(t),
            Decl::Module(m) => Err(unsupported_modules(m.span)),
            Decl::ModType(m) => Err(unsupported_modules(m.span)),
            // `import` is handled by the caller (`check_file`).
            Decl::Open(_, span) | Decl::Import(_, span) => Err(unsupported_modules(*span)),
            Decl::Local(d, _) => self.check_decl(d, entries),
        }
    }

    fn check_type_decl(&mut self, t: &TypeDecl) -> Res<()> {
        let mark = self.types.len();
        let mut params = vec![];
        for p in &t.params {
            match p {
                TypeParam::Type(id, _) => {
                    let tp = self.new_tparam(&id.name);
                    params.push(AbbrevParam::Type(tp));
                    self.types
                        .push((id.name.clone(), TypeName::Type(Type::Param(tp))));
                }
                TypeParam::Size(id) => {
                    params.push(AbbrevParam::Size);
                    self.types.push((id.name.clone(), TypeName::Size));
                }
            }
        }
        let def = self.type_exp(&t.def);
        self.types.truncate(mark);
        let def = def?;
        let binding = if params.is_empty() {
            TypeName::Type(def)
        } else {
            TypeName::Abbrev(params, def)
        };
        self.types.push((t.name.name.clone(), binding));
        Ok(())
    }

    fn check_val(&mut self, v: &ValDecl, entries: &mut Vec<EntryPoint>) -> Res<()> {
        let var_mark = self.vars.len();
        let (smark, tmark) = (self.scope.len(), self.types.len());
        self.inf.level = 1;
        let r = self.check_fun_parts(&v.type_params, &v.params, v.ret.as_ref(), &v.body);
        self.inf.level = 0;
        self.scope.truncate(smark);
        self.types.truncate(tmark);
        let mut parts = r?;
        let fty = Type::arrows(
            parts.params.iter().map(|p| p.ty()).collect(),
            parts.ret.clone(),
        );
        let mut type_params = parts.type_params.clone();
        type_params.extend(self.generalise(&fty, 0));
        for p in &mut parts.params {
            self.finish_pat(p)?;
        }
        let ret = self.resolve(&parts.ret, v.span)?;
        self.finish_exp(&mut parts.body)?;
        self.finish_vars(var_mark)?;
        let ty = self.resolve(&fty, v.span)?;
        let (scheme, ty) = self.size_scheme(&parts.size_params, &parts.params, &ty, |_| false);

        let is_entry = (v.kind == ValKind::Entry || v.name.name == "main") && !self.in_import;
        if is_entry && !self.in_prelude {
            if !type_params.is_empty() {
                return Err(Diagnostic::error(
                    v.name.span,
                    format!("entry point '{}' cannot be polymorphic", v.name.name),
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
                        "entry point '{}' cannot take or return functions",
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
            entries.push(EntryPoint {
                name: v.name.name.clone(),
                params,
                results,
                span: v.span,
            });
        }

        let id = FunId(self.funs.len() as u32);
        if self.in_prelude && v.name.name == "reduce" {
            self.reduce_fun = Some(id);
        }
        if !scheme.vars.is_empty() {
            self.fun_sizes.insert(id, scheme);
        }
        self.funs.push(TFun {
            id,
            name: v.name.name.clone(),
            type_params: type_params.clone(),
            size_params: parts.size_params,
            size_sources: parts.size_sources,
            params: parts.params,
            ret,
            body: parts.body,
            span: v.span,
            entry: is_entry && !self.in_prelude,
            prelude: self.in_prelude,
        });
        self.globals.insert(
            v.name.name.clone(),
            Global {
                id,
                type_params,
                ty,
            },
        );
        Ok(())
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
