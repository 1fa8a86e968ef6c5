//! The module language, elaborated while checking: structures, functors,
//! `open`, `local`, qualified names and imported files.
//!
//! A module is a namespace of checked things ([`ModEnv`]): its values are
//! ordinary top-level functions ([`Global`]s with their own [`FunId`]s),
//! its types are types. Nothing of a module survives checking, so lowering
//! never sees one. A functor is kept as its syntax with the scope it was
//! defined in ([`Functor`]); applying it checks its body afresh with the
//! parameter bound to the (ascribed) argument, so every application has
//! its own functions, specialised to the argument, as lowering's
//! monomorphisation would make them anyway. The built-in numeric modules
//! (`f64`, `i32`, …) are modules too ([`Module::Prim`]) and can be functor
//! arguments.
//!
//! Scoping: checking a structure saves the checker's scope ([`Scope`]),
//! checks the declarations as at top level, collects what they export and
//! restores the scope. `open m` brings `m`'s names into scope and exports
//! them too (as in Futhark; `local open m` does not export); `import`
//! brings a file's exports into scope without exporting them.

use crate::env::{Checker, Global, Res, TypeName};
use crate::sig::Sig;
use parad_base::{Diagnostic, PrimType, SourceMap, Span};
use parad_syntax::ast::{Decl, Liftedness, ModDecl, ModExp, ModParam, ModTypeExp, QualName};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What a structure defines, each namespace in definition order (a name
/// defined twice keeps its last definition, in the first one's place).
#[derive(Clone, Debug, Default)]
pub(crate) struct ModEnv {
    pub vals: Vec<(String, Global)>,
    pub types: Vec<(String, TypeName)>,
    pub mods: Vec<(String, Module)>,
    pub sigs: Vec<(String, Rc<Sig>)>,
    /// How lifted each type is (`type`, `type~`, `type^`).
    pub lifted: Vec<(String, Liftedness)>,
}

fn set<T>(xs: &mut Vec<(String, T)>, name: &str, x: T) {
    match xs.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = x,
        None => xs.push((name.to_string(), x)),
    }
}

fn get<'a, T>(xs: &'a [(String, T)], name: &str) -> Option<&'a T> {
    xs.iter().find(|(n, _)| n == name).map(|(_, x)| x)
}

impl ModEnv {
    pub fn val(&self, name: &str) -> Option<&Global> {
        get(&self.vals, name)
    }
    pub fn ty(&self, name: &str) -> Option<&TypeName> {
        get(&self.types, name)
    }
    pub fn module(&self, name: &str) -> Option<&Module> {
        get(&self.mods, name)
    }
    pub fn sig(&self, name: &str) -> Option<&Rc<Sig>> {
        get(&self.sigs, name)
    }
    pub fn set_val(&mut self, name: &str, g: Global) {
        set(&mut self.vals, name, g)
    }
    pub fn set_type(&mut self, name: &str, t: TypeName) {
        set(&mut self.types, name, t)
    }
    pub fn set_mod(&mut self, name: &str, m: Module) {
        set(&mut self.mods, name, m)
    }
    pub fn set_sig(&mut self, name: &str, s: Rc<Sig>) {
        set(&mut self.sigs, name, s)
    }
    pub fn liftedness(&self, name: &str) -> Liftedness {
        get(&self.lifted, name)
            .copied()
            .unwrap_or(Liftedness::Unlifted)
    }
    pub fn set_lifted(&mut self, name: &str, l: Liftedness) {
        set(&mut self.lifted, name, l)
    }
    /// Adds everything `other` defines (for `open`).
    pub fn extend(&mut self, other: &ModEnv) {
        for (n, g) in &other.vals {
            self.set_val(n, g.clone());
        }
        for (n, t) in &other.types {
            self.set_type(n, t.clone());
        }
        for (n, m) in &other.mods {
            self.set_mod(n, m.clone());
        }
        for (n, s) in &other.sigs {
            self.set_sig(n, s.clone());
        }
        for (n, l) in &other.lifted {
            self.set_lifted(n, *l);
        }
    }
}

/// A module value.
#[derive(Clone, Debug)]
pub(crate) enum Module {
    Struct(Rc<ModEnv>),
    /// A built-in numeric module: `f64`, `i32`, `bool`, ….
    Prim(PrimType),
    Functor(Rc<Functor>),
}

impl Module {
    pub fn describe(&self) -> &'static str {
        match self {
            Module::Struct(_) | Module::Prim(_) => "a structure",
            Module::Functor(_) => "a parametric module",
        }
    }
}

/// A parametric module: `\(param: param_sig) [: result] -> body`, with
/// the scope it was defined in.
#[derive(Debug)]
pub(crate) struct Functor {
    pub name: String,
    pub param: ModParam,
    pub result: Option<ModTypeExp>,
    pub body: ModExp,
    pub closure: Scope,
}

/// Everything a name can refer to at module level (no local variables:
/// modules are only declared at top level and in structures).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    pub globals: HashMap<String, Global>,
    pub types: Vec<(String, TypeName)>,
    pub mods: Vec<(String, Module)>,
    pub sigs: Vec<(String, Rc<Sig>)>,
    pub opened: Vec<PrimType>,
    pub opened_envs: Vec<(usize, Rc<ModEnv>)>,
}

/// Imported files and the sources they were read from.
#[derive(Default)]
pub(crate) struct Files {
    pub sources: SourceMap,
    pub next_id: u32,
    /// Files checked, by [`import_key`], with what they export.
    pub done: HashMap<PathBuf, Rc<ModEnv>>,
    /// The chain of files being checked, importer first: key and name.
    pub active: Vec<(PathBuf, String)>,
    /// The scope after the prelude, in which every file is checked.
    pub prelude: Option<Scope>,
}

impl Checker {
    pub fn scope_now(&self) -> Scope {
        Scope {
            globals: self.globals.clone(),
            types: self.types.clone(),
            mods: self.mods.clone(),
            sigs: self.sigs.clone(),
            opened: self.opened.clone(),
            opened_envs: self.opened_envs.clone(),
        }
    }

    /// Replaces the scope, returning the old one.
    pub fn set_scope(&mut self, s: Scope) -> Scope {
        Scope {
            globals: std::mem::replace(&mut self.globals, s.globals),
            types: std::mem::replace(&mut self.types, s.types),
            mods: std::mem::replace(&mut self.mods, s.mods),
            sigs: std::mem::replace(&mut self.sigs, s.sigs),
            opened: std::mem::replace(&mut self.opened, s.opened),
            opened_envs: std::mem::replace(&mut self.opened_envs, s.opened_envs),
        }
    }

    /// Checks `decls` in scope `scope` (the current one when `None`) and
    /// returns what they export; the scope is restored afterwards.
    pub fn check_struct(&mut self, decls: &[Decl], scope: Option<Scope>) -> Res<ModEnv> {
        let saved = match scope {
            Some(s) => self.set_scope(s),
            None => self.scope_now(),
        };
        let mut out = ModEnv::default();
        let r = self.check_decls(decls, &mut out);
        self.set_scope(saved);
        r.map(|()| out)
    }

    /// Checks the declarations of one structure or file, none of which
    /// may define a name another defines (in the same namespace).
    pub fn check_decls(&mut self, decls: &[Decl], out: &mut ModEnv) -> Res<()> {
        let mut seen: HashMap<(&'static str, String), Span> = HashMap::new();
        let mut names = vec![];
        decls.iter().for_each(|d| defined_names(d, &mut names));
        for (kind, name, span) in names {
            if let Some(prev) = seen.insert((kind, name.clone()), span) {
                return Err(Diagnostic::error(
                    span,
                    format!("Duplicate definition of {kind} '{name}'"),
                )
                .with_label(prev, "previously defined here"));
            }
        }
        decls.iter().try_for_each(|d| self.check_decl(d, out, true))
    }

    /// Brings a structure's names into scope.
    pub fn open_env(&mut self, env: &ModEnv) {
        for (n, g) in &env.vals {
            self.globals.insert(n.clone(), g.clone());
        }
        self.types.extend(env.types.iter().cloned());
        self.mods.extend(env.mods.iter().cloned());
        self.sigs.extend(env.sigs.iter().cloned());
    }

    /// `module m = me`, `module m (p: mt) … : mt = me`.
    pub fn check_mod_decl(&mut self, m: &ModDecl) -> Res<Module> {
        self.mod_path.push(m.name.name.clone());
        let r = self.mod_decl_value(m);
        self.mod_path.pop();
        r
    }

    fn mod_decl_value(&mut self, m: &ModDecl) -> Res<Module> {
        if let Some((first, rest)) = m.params.split_first() {
            // `module f (a: A) (b: B) : R = e` is `module f = \(a: A) -> \(b: B) : R -> e`.
            let mut body = m.body.clone();
            let mut result = m.sig.clone();
            for p in rest.iter().rev() {
                body = ModExp::Lambda(Box::new(p.clone()), result.take(), Box::new(body), m.span);
            }
            let f = Rc::new(Functor {
                name: m.name.name.clone(),
                param: first.clone(),
                result,
                body,
                closure: self.scope_now(),
            });
            self.check_functor(&f)?;
            return Ok(Module::Functor(f));
        }
        let v = self.eval_mod(&m.body)?;
        match &m.sig {
            Some(sig) => {
                let s = self.eval_sig(sig)?;
                self.ascribe(&v, &s, m.body.span(), &m.name.name)
            }
            None => Ok(v),
        }
    }

    pub fn eval_mod(&mut self, me: &ModExp) -> Res<Module> {
        match me {
            ModExp::Var(q) => self.lookup_mod_qual(q),
            ModExp::Struct(decls, _) => {
                Ok(Module::Struct(Rc::new(self.check_struct(decls, None)?)))
            }
            ModExp::Import(path, span) => Ok(Module::Struct(self.import(path, *span)?)),
            ModExp::Ascribe(e, sig, span) => {
                let v = self.eval_mod(e)?;
                let s = self.eval_sig(sig)?;
                self.ascribe(&v, &s, *span, "")
            }
            ModExp::Lambda(param, result, body, _) => {
                let f = Rc::new(Functor {
                    name: "\\".to_string(),
                    param: (**param).clone(),
                    result: result.clone(),
                    body: (**body).clone(),
                    closure: self.scope_now(),
                });
                self.check_functor(&f)?;
                Ok(Module::Functor(f))
            }
            ModExp::Apply(f, a, span) => {
                let fv = self.eval_mod(f)?;
                let av = self.eval_mod(a)?;
                self.apply_functor(&fv, &av, f.span(), *span)
            }
        }
    }

    /// `f a`: checks the functor's body with its parameter bound to the
    /// argument, seen through the parameter's module type.
    pub fn apply_functor(
        &mut self,
        f: &Module,
        arg: &Module,
        fspan: Span,
        span: Span,
    ) -> Res<Module> {
        let Module::Functor(f) = f else {
            return Err(
                Diagnostic::error(fspan, "cannot apply a module that is not parametric")
                    .with_note(format!("this is {}", f.describe())),
            );
        };
        let outer = self.set_scope(f.closure.clone());
        let r = (|| {
            let psig = self.eval_sig(&f.param.sig)?;
            let bound = self.ascribe_param(arg, &psig, span, &f.param.name.name)?;
            self.mods.push((f.param.name.name.clone(), bound));
            self.mod_path.push(f.name.clone());
            self.functor_apps += 1;
            let r = (|| {
                let v = self.eval_mod(&f.body)?;
                match &f.result {
                    Some(sig) => {
                        let s = self.eval_sig(sig)?;
                        self.ascribe(&v, &s, f.body.span(), "")
                    }
                    None => Ok(v),
                }
            })();
            self.functor_apps -= 1;
            self.mod_path.pop();
            r
        })();
        self.set_scope(outer);
        r.map_err(|d| match d.span {
            Some(s) if s.file == span.file && span.range().contains(&s.range().start) => d,
            _ => d.with_label(span, format!("in this application of '{}'", f.name)),
        })
    }

    /// Checks a parametric module's body where it is defined, applied to a
    /// stand-in for its parameter ([`Checker::stand_in`]), so that errors
    /// are found even if it is never applied, and the body uses of its
    /// parameter only what the parameter's module type specifies. What
    /// this check makes is then forgotten.
    fn check_functor(&mut self, f: &Functor) -> Res<()> {
        let funs = self.funs.len();
        let files: Vec<PathBuf> = self.files.done.keys().cloned().collect();
        let outer = self.set_scope(f.closure.clone());
        self.mod_path.push(f.name.clone());
        let r = (|| {
            let psig = self.eval_sig(&f.param.sig)?;
            let Some(arg) = self.stand_in(&psig)? else {
                return Ok(());
            };
            self.mods.push((f.param.name.name.clone(), arg));
            // A curried functor's inner parametric modules are checked as
            // they are made.
            let v = self.eval_mod(&f.body)?;
            if let Some(sig) = &f.result {
                let s = self.eval_sig(sig)?;
                self.ascribe(&v, &s, f.body.span(), "")?;
            }
            Ok(())
        })();
        self.mod_path.pop();
        self.set_scope(outer);
        // Functions made for the stand-in are never used, nor files first
        // imported here (they are checked again where they are used).
        self.funs.truncate(funs);
        self.fun_sizes.retain(|id, _| (id.0 as usize) < funs);
        self.files.done.retain(|k, _| files.contains(k));
        r
    }

    /// The module a possibly qualified module name refers to.
    pub fn lookup_mod_qual(&mut self, q: &QualName) -> Res<Module> {
        let mut path = q.quals.clone();
        path.push(q.name.clone());
        if q.quals.is_empty() && q.name == "intrinsics" {
            return Err(Diagnostic::error(
                q.span,
                "The 'intrinsics' module may not be used in module expressions.",
            ));
        }
        self.lookup_mod_path(&path, q.span)?
            .ok_or_else(|| Diagnostic::error(q.span, format!("Unknown module '{}'", q.full())))
    }

    /// The module at `path` (`M`, `M.N`), if its first name is a module.
    /// Names after the first must exist.
    pub fn lookup_mod_path(&self, path: &[String], span: Span) -> Res<Option<Module>> {
        let Some(mut m) = self.lookup_mod(&path[0]) else {
            return Ok(None);
        };
        for (i, n) in path.iter().enumerate().skip(1) {
            let next = match &m {
                Module::Struct(env) => env.module(n).cloned(),
                _ => None,
            };
            m = next.ok_or_else(|| {
                Diagnostic::error(
                    span,
                    format!("module '{}' has no module '{n}'", path[..i].join(".")),
                )
            })?;
        }
        Ok(Some(m))
    }

    /// A module by its unqualified name.
    pub fn lookup_mod(&self, name: &str) -> Option<Module> {
        for (_, env) in self.opened_envs.iter().rev() {
            if let Some(m) = env.module(name) {
                return Some(m.clone());
            }
        }
        if let Some((_, m)) = self.mods.iter().rev().find(|(n, _)| n == name) {
            return Some(m.clone());
        }
        PrimType::from_name(name).map(Module::Prim)
    }

    /// The structure that qualifies a name (`M.N` of `M.N.x`), if its
    /// first qualifier is a module.
    pub fn qualifier(&self, quals: &[String], span: Span) -> Res<Option<Module>> {
        if quals.is_empty() {
            return Ok(None);
        }
        self.lookup_mod_path(quals, span)
    }

    /// The type a qualified type name refers to (`M.t`).
    pub fn qual_type(&self, q: &QualName) -> Res<Option<TypeName>> {
        let Some(m) = self.qualifier(&q.quals, q.span)? else {
            return Ok(None);
        };
        match m {
            Module::Prim(p) if q.name == "t" => {
                Ok(Some(TypeName::Type(crate::tast::Type::Prim(p))))
            }
            Module::Struct(env) => match env.ty(&q.name) {
                Some(t) => Ok(Some(t.clone())),
                None => Err(Diagnostic::error(
                    q.span,
                    format!("module '{}' has no type '{}'", q.quals.join("."), q.name),
                )),
            },
            m => Err(Diagnostic::error(
                q.span,
                format!(
                    "'{}' is {}, which has no type '{}'",
                    q.quals.join("."),
                    m.describe(),
                    q.name
                ),
            )),
        }
    }

    /// The value a name opened by `M.(e)` refers to, unless a local bound
    /// inside the `M.(…)` shadows it.
    pub fn opened_val(&self, name: &str) -> Option<Global> {
        for (mark, env) in self.opened_envs.iter().rev() {
            if self.scope[*mark..].iter().any(|(n, _)| n == name) {
                return None;
            }
            if let Some(g) = env.val(name) {
                return Some(g.clone());
            }
        }
        None
    }

    /// The name a function of the module being checked gets in dumps.
    pub fn qualified_fun_name(&self, name: &str) -> String {
        if self.mod_path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.mod_path.join("."))
        }
    }

    /// Checks the file that `import "path"` (at `span`) names, once, in
    /// the prelude's scope; returns what it exports.
    pub fn import(&mut self, path: &str, span: Span) -> Res<Rc<ModEnv>> {
        if path.is_empty() {
            return Err(Diagnostic::error(span, "empty import path"));
        }
        if path.starts_with('/') {
            return Err(Diagnostic::error(span, format!("cannot import '{path}'")));
        }
        let from = self.files.sources.get(span.file).name.clone();
        let dir = Path::new(&from)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let name = parad_syntax::import_file(&from, path);
        let key = import_key(&name);
        if let Some(env) = self.files.done.get(&key) {
            return Ok(env.clone());
        }
        if let Some(k) = self.files.active.iter().position(|(a, _)| *a == key) {
            let chain: Vec<&str> = self.files.active[k..]
                .iter()
                .map(|(_, n)| n.as_str())
                .collect();
            return Err(Diagnostic::error(
                span,
                format!(
                    "import cycle: {} imports {}",
                    chain.join(" imports "),
                    name.display()
                ),
            )
            .with_note("a file cannot import a file that (directly or indirectly) imports it"));
        }
        let text = parad_base::read_source(&name).map_err(|e| {
            let d = Diagnostic::error(
                span,
                format!(
                    "cannot import '{path}': cannot read {}: {e}",
                    name.display()
                ),
            );
            // A package whose folder exists is installed: the file is
            // what is missing.
            match package_of(path) {
                Some(pkg) if !dir.join("lib").join(&pkg).is_dir() => d.with_note(format!(
                    "the package '{pkg}' is not installed here; `futhark pkg add {pkg}` and `futhark pkg sync` install it under lib/"
                )),
                _ => d,
            }
        })?;
        let fid = self
            .files
            .sources
            .add(name.display().to_string(), text.clone());
        let (prog, next) = parad_syntax::parse_with_ids(fid, &text, self.files.next_id)?;
        self.files.next_id = next;
        self.files
            .active
            .push((key.clone(), name.display().to_string()));
        // Entry points of imported files are ordinary functions.
        let was = std::mem::replace(&mut self.in_import, true);
        let path_was = std::mem::take(&mut self.mod_path);
        let scope = self.files.prelude.clone();
        let r = self.check_struct(&prog.decls, scope);
        self.mod_path = path_was;
        self.in_import = was;
        self.files.active.pop();
        let env = Rc::new(r?);
        self.files.done.insert(key, env.clone());
        Ok(env)
    }
}

/// The names a declaration defines: namespace, name, where.
fn defined_names(d: &Decl, out: &mut Vec<(&'static str, String, Span)>) {
    match d {
        Decl::Val(v) => out.push(("value", v.name.name.clone(), v.name.span)),
        Decl::Type(t) => out.push(("type", t.name.name.clone(), t.name.span)),
        Decl::Module(m) => out.push(("module", m.name.name.clone(), m.name.span)),
        Decl::ModType(m) => out.push(("module type", m.name.name.clone(), m.name.span)),
        Decl::Local(d, _) => defined_names(d, out),
        Decl::Open(..) | Decl::Import(..) => {}
    }
}

/// `github.com/owner/repo` of a path into `lib/`, as `futhark pkg` lays
/// packages out.
fn package_of(path: &str) -> Option<String> {
    let rest = path.strip_prefix("lib/")?;
    let parts: Vec<&str> = rest.split('/').collect();
    (parts.len() >= 4).then(|| parts[..3].join("/"))
}

/// A file's identity for imports: its canonical path when it exists.
pub(crate) fn import_key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
