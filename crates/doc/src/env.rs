//! What a name refers to, for links, and the documented declarations of a
//! file as [`Item`]s with their signatures in HTML.
//!
//! The type checker has resolved every name already, but it keeps no
//! module structure and no spans for type names, so the documentation
//! resolves names again over the syntax tree, with the scoping rules of
//! the module language: declarations are seen in order; `import` brings
//! a file's exports into scope, `open` brings a module's names into scope
//! and exports them; `local` declarations are in scope but neither
//! exported nor documented; a module ascribed a module type exports what
//! the module type says. A name maps to the [`Link`] of its documented
//! definition, or to `None` when its definition has no page (a local
//! declaration, an ignored file), so that it still shadows outer names.
//! Names that resolve to nothing (built-in types, the prelude, type
//! parameters) are simply not linked.
//!
//! Parameter and result types are shown as declared; where a parameter
//! or result has no annotation, the type the checker inferred is shown
//! (found by the definition's span), without links.

use crate::html::{self, esc, kw, type_html, TyLevel};
use crate::markdown::{self, Namespace};
use parad_base::{SourceMap, Span};
use parad_syntax::ast::{
    Decl, Liftedness, ModExp, ModTypeExp, Pat, QualName, Spec, TypeParam, ValDecl,
};
use parad_types::tast::TFun;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Where a documented definition is: a page and an element id on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The page, relative to the output folder.
    pub page: String,
    /// The element id on the page.
    pub anchor: String,
}

/// A module or module type: its own link and the names it defines.
#[derive(Clone, Default)]
pub struct ModInfo {
    /// The module's own documentation (none if it has no page).
    pub link: Option<Link>,
    /// What its members are.
    pub env: Rc<Env>,
}

/// The names of one scope or one module, by namespace.
#[derive(Clone, Default)]
pub struct Env {
    /// Values (and their links, `None` when undocumented).
    pub vals: HashMap<String, Option<Link>>,
    /// Types.
    pub types: HashMap<String, Option<Link>>,
    /// Modules.
    pub mods: HashMap<String, ModInfo>,
    /// Module types.
    pub sigs: HashMap<String, ModInfo>,
}

impl Env {
    /// Adds (and shadows with) everything `other` defines.
    pub fn extend(&mut self, other: &Env) {
        for (n, l) in &other.vals {
            self.vals.insert(n.clone(), l.clone());
        }
        for (n, l) in &other.types {
            self.types.insert(n.clone(), l.clone());
        }
        for (n, m) in &other.mods {
            self.mods.insert(n.clone(), m.clone());
        }
        for (n, m) in &other.sigs {
            self.sigs.insert(n.clone(), m.clone());
        }
    }

    /// The environment reached through the module names `quals`
    /// (`self` itself when there are none).
    fn through<'a>(&'a self, quals: &[String]) -> Option<&'a Env> {
        let mut env = self;
        for q in quals {
            env = &env.mods.get(q)?.env;
        }
        Some(env)
    }

    fn type_link(&self, q: &QualName) -> Option<&Link> {
        self.through(&q.quals)?.types.get(&q.name)?.as_ref()
    }

    fn module(&self, q: &QualName) -> Option<&ModInfo> {
        self.through(&q.quals)?.mods.get(&q.name)
    }

    fn sig(&self, q: &QualName) -> Option<&ModInfo> {
        self.through(&q.quals)?.sigs.get(&q.name)
    }

    /// The definition a doc link names (`M.f` in `` `M.f`@term ``).
    pub fn lookup(&self, name: &str, ns: Namespace) -> Option<&Link> {
        let (quals, last) = split_qualified(name);
        let env = self.through(&quals)?;
        match ns {
            Namespace::Term => match env.vals.get(&last) {
                Some(l) => l.as_ref(),
                None => env.mods.get(&last)?.link.as_ref(),
            },
            Namespace::Type => env.types.get(&last)?.as_ref(),
            Namespace::ModType => env.sigs.get(&last)?.link.as_ref(),
        }
    }
}

/// `M.N.f` as `(["M", "N"], "f")`; the qualifiers are the leading parts
/// that are identifiers (so that `f32.+` and `..` keep their operator).
fn split_qualified(name: &str) -> (Vec<String>, String) {
    let mut quals = vec![];
    let mut rest = name;
    while let Some((q, r)) = rest.split_once('.') {
        let ident = q
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && q.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '\'');
        if !ident || r.is_empty() {
            break;
        }
        quals.push(q.to_string());
        rest = r;
    }
    (quals, rest.to_string())
}

/// What kind of thing an [`Item`] documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `def`, `let`, `entry`, or `val` in a module type.
    Value,
    /// `type`.
    Type,
    /// `module`.
    Module,
    /// `module type`.
    ModType,
    /// `include` in a module type (no anchor of its own).
    Include,
    /// `open` of a module, whose names are exported (no anchor).
    Open,
}

impl Kind {
    /// How the index names the kind.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::Type => "type",
            Kind::Module => "module",
            Kind::ModType => "module type",
            Kind::Include => "include",
            Kind::Open => "open",
        }
    }
}

/// One documented declaration or specification.
pub struct Item {
    /// What it declares.
    pub kind: Kind,
    /// The name qualified by the modules it is in (`M.f`).
    pub name: String,
    /// Its element id (none for `include`).
    pub anchor: Option<String>,
    /// The signature, HTML.
    pub sig_html: String,
    /// The doc comment as written, and as HTML once rendered.
    pub doc: Option<String>,
    /// The doc comment as HTML (empty until rendered).
    pub doc_html: String,
    /// Where the declaration is.
    pub span: Span,
    /// Members (of a module or module type), documented below it.
    pub children: Vec<Item>,
}

/// The source name of the file that `import "path"` in the file named
/// `from` reads, by the type checker's rule ([`parad_syntax::import_file`]).
pub fn import_name(from: &str, path: &str) -> String {
    parad_syntax::import_file(from, path)
        .to_string_lossy()
        .into_owned()
}

/// What the walk of one file needs from the whole program.
pub struct FileCtx<'a> {
    /// The page of the file (relative to the output folder).
    pub page: String,
    /// The file's source name (imports are relative to it).
    pub name: String,
    /// Whether the file has a page (not an "ignore" file).
    pub documented: bool,
    /// Checked functions by the file and start of their definition.
    pub funs: &'a HashMap<(u32, u32), &'a TFun>,
    /// Names of the checker's type parameters.
    pub type_params: &'a [String],
    /// The exports of the files walked so far, by source name.
    pub files: &'a HashMap<String, Rc<Env>>,
    /// The page of each documented file, by source name.
    pub pages: &'a HashMap<String, String>,
    /// The sources, for the locations of warnings.
    pub sources: &'a SourceMap,
}

/// Walks the declarations of one file.
pub struct Walker<'a> {
    /// The file being walked.
    pub cx: FileCtx<'a>,
    anchors: HashSet<String>,
    /// Doc links that did not resolve, as messages with locations.
    pub warnings: Vec<String>,
}

impl<'a> Walker<'a> {
    /// A walker of the file `cx` describes.
    pub fn new(cx: FileCtx<'a>) -> Walker<'a> {
        Walker {
            cx,
            anchors: HashSet::new(),
            warnings: vec![],
        }
    }

    /// A fresh element id for `name` in namespace `ns` within the
    /// modules `path`.
    fn anchor(&mut self, ns: &str, path: &[String], name: &str) -> String {
        let mut full = path.join(".");
        if !full.is_empty() {
            full.push('.');
        }
        full.push_str(name);
        let base = format!("{ns}:{}", html::anchor_part(&full));
        let mut a = base.clone();
        let mut n = 2;
        while self.anchors.contains(&a) {
            a = format!("{base}~~{n}");
            n += 1;
        }
        self.anchors.insert(a.clone());
        a
    }

    fn link(&mut self, doc: bool, ns: &str, path: &[String], name: &str) -> Option<Link> {
        doc.then(|| Link {
            page: self.cx.page.clone(),
            anchor: self.anchor(ns, path, name),
        })
    }

    fn href(&self, l: &Link) -> String {
        html::href(&self.cx.page, &l.page, Some(&l.anchor))
    }

    /// The defined name, linked to its own anchor when it has one.
    fn def_name(&self, name: &str, link: &Option<Link>) -> String {
        let text = html::binder(name);
        match link {
            Some(l) => format!("<a class=\"name\" href=\"{}\">{text}</a>", self.href(l)),
            None => text,
        }
    }

    /// A type expression with its names linked in `scope` (names in
    /// `locals`, type parameters, are not looked up).
    fn ty(
        &self,
        t: &parad_syntax::ast::TypeExp,
        lvl: TyLevel,
        arrow_follows: bool,
        scope: &Env,
        locals: &HashSet<String>,
    ) -> String {
        let resolve = |q: &QualName| {
            if q.quals.is_empty() && locals.contains(&q.name) {
                return None;
            }
            scope.type_link(q).map(|l| self.href(l))
        };
        type_html(t, lvl, arrow_follows, &resolve)
    }

    /// Walks declarations (of a file or structure) in `scope`, adding
    /// what they export to `exports` and, when `doc`, their items to
    /// `items`, whose doc comments are rendered in the scope at the end.
    pub fn decls(
        &mut self,
        decls: &[Decl],
        scope: &mut Env,
        exports: &mut Env,
        path: &[String],
        doc: bool,
        items: &mut Vec<Item>,
    ) {
        let start = items.len();
        for d in decls {
            self.decl(d, scope, exports, path, doc, items);
        }
        if doc {
            self.render_docs(&mut items[start..], scope);
        }
    }

    fn decl(
        &mut self,
        d: &Decl,
        scope: &mut Env,
        exports: &mut Env,
        path: &[String],
        doc: bool,
        items: &mut Vec<Item>,
    ) {
        match d {
            Decl::Val(v) => {
                let link = self.link(doc, "term", path, &v.name.name);
                let sig_html = self.val_sig(v, scope, &link);
                scope.vals.insert(v.name.name.clone(), link.clone());
                exports.vals.insert(v.name.name.clone(), link.clone());
                if doc {
                    items.push(item(
                        Kind::Value,
                        path,
                        &v.name.name,
                        link,
                        sig_html,
                        &v.doc,
                        v.span,
                    ));
                }
            }
            Decl::Type(t) => {
                let link = self.link(doc, "type", path, &t.name.name);
                let locals = param_names(&t.params);
                let def = self.ty(&t.def, TyLevel::Full, false, scope, &locals);
                let sig_html = format!(
                    "{} {}{} = {def}",
                    kw(type_keyword(t.liftedness)),
                    self.def_name(&t.name.name, &link),
                    html::type_params(&t.params)
                );
                scope.types.insert(t.name.name.clone(), link.clone());
                exports.types.insert(t.name.name.clone(), link.clone());
                if doc {
                    items.push(item(
                        Kind::Type,
                        path,
                        &t.name.name,
                        link,
                        sig_html,
                        &t.doc,
                        t.span,
                    ));
                }
            }
            Decl::ModType(mt) => {
                let link = self.link(doc, "mtype", path, &mt.name.name);
                let name = self.def_name(&mt.name.name, &link);
                let mut children = vec![];
                let (env, sig_html) = match &mt.def {
                    ModTypeExp::Specs(specs, _) if doc => {
                        let inner = child_path(path, &mt.name.name);
                        let env = self.specs(specs, scope, &inner, true, &mut children);
                        (Rc::new(env), format!("{} {name}", kw("module type")))
                    }
                    def => (
                        self.sig_env(def, scope),
                        format!(
                            "{} {name} = {}",
                            kw("module type"),
                            self.mte_html(def, scope)
                        ),
                    ),
                };
                let info = ModInfo {
                    link: link.clone(),
                    env,
                };
                scope.sigs.insert(mt.name.name.clone(), info.clone());
                exports.sigs.insert(mt.name.name.clone(), info);
                if doc {
                    let mut it = item(
                        Kind::ModType,
                        path,
                        &mt.name.name,
                        link,
                        sig_html,
                        &mt.doc,
                        mt.span,
                    );
                    it.children = children;
                    items.push(it);
                }
            }
            Decl::Module(m) => {
                let link = self.link(doc, "term", path, &m.name.name);
                let mut inner = scope.clone();
                let mut params_html = String::new();
                for p in &m.params {
                    let env = self.sig_env(&p.sig, &inner);
                    params_html.push_str(&format!(
                        " ({}: {})",
                        esc(&p.name.name),
                        self.mte_html(&p.sig, &inner)
                    ));
                    inner
                        .mods
                        .insert(p.name.name.clone(), ModInfo { link: None, env });
                }
                let members = child_path(path, &m.name.name);
                let mut children = vec![];
                let sig = match (&m.sig, &m.body) {
                    (Some(s), _) | (None, ModExp::Ascribe(_, s, _)) => Some(s),
                    _ => None,
                };
                let (env, rest) = match (sig, &m.body) {
                    (Some(ModTypeExp::Specs(specs, _)), _) if doc => {
                        let env = self.specs(specs, &inner, &members, true, &mut children);
                        (Rc::new(env), String::new())
                    }
                    (Some(s), _) => (
                        self.sig_env(s, &inner),
                        format!(" : {}", self.mte_html(s, &inner)),
                    ),
                    (None, ModExp::Struct(decls, _)) => {
                        let mut ex = Env::default();
                        self.decls(
                            decls,
                            &mut inner.clone(),
                            &mut ex,
                            &members,
                            doc,
                            &mut children,
                        );
                        (Rc::new(ex), String::new())
                    }
                    (None, body) => (
                        self.mod_env(body, &inner),
                        format!(" = {}", self.mod_exp_html(body, &inner)),
                    ),
                };
                let sig_html = format!(
                    "{} {}{params_html}{rest}",
                    kw("module"),
                    self.def_name(&m.name.name, &link)
                );
                let info = ModInfo {
                    link: link.clone(),
                    env,
                };
                scope.mods.insert(m.name.name.clone(), info.clone());
                exports.mods.insert(m.name.name.clone(), info);
                if doc {
                    let mut it = item(
                        Kind::Module,
                        path,
                        &m.name.name,
                        link,
                        sig_html,
                        &m.doc,
                        m.span,
                    );
                    it.children = children;
                    items.push(it);
                }
            }
            Decl::Open(me, span) => {
                if doc {
                    let sig_html = format!("{} {}", kw("open"), self.mod_exp_html(me, scope));
                    items.push(item(Kind::Open, path, "", None, sig_html, &None, *span));
                }
                let env = self.mod_env(me, scope);
                scope.extend(&env);
                exports.extend(&env);
            }
            Decl::Import(p, _) => {
                let env = self.file_env(p);
                scope.extend(&env);
            }
            Decl::Local(d, _) => {
                self.decl(d, scope, &mut Env::default(), path, false, &mut vec![]);
            }
        }
    }

    /// The exports of an imported file (nothing if it is unknown).
    fn file_env(&self, path: &str) -> Rc<Env> {
        let name = import_name(&self.cx.name, path);
        self.cx.files.get(&name).cloned().unwrap_or_default()
    }

    /// What a module expression defines.
    fn mod_env(&mut self, me: &ModExp, scope: &Env) -> Rc<Env> {
        match me {
            ModExp::Var(q) => scope.module(q).map(|m| m.env.clone()).unwrap_or_default(),
            ModExp::Struct(decls, _) => {
                let mut ex = Env::default();
                self.decls(decls, &mut scope.clone(), &mut ex, &[], false, &mut vec![]);
                Rc::new(ex)
            }
            ModExp::Import(p, _) => self.file_env(p),
            ModExp::Apply(f, _, _) => self.mod_env(f, scope),
            ModExp::Ascribe(_, s, _) => self.sig_env(s, scope),
            ModExp::Lambda(p, sig, body, _) => {
                let mut inner = scope.clone();
                let env = self.sig_env(&p.sig, scope);
                inner
                    .mods
                    .insert(p.name.name.clone(), ModInfo { link: None, env });
                match sig {
                    Some(s) => self.sig_env(s, &inner),
                    None => self.mod_env(body, &inner),
                }
            }
        }
    }

    /// What a module of module type `mte` defines.
    fn sig_env(&mut self, mte: &ModTypeExp, scope: &Env) -> Rc<Env> {
        match mte {
            ModTypeExp::Var(q) => scope.sig(q).map(|m| m.env.clone()).unwrap_or_default(),
            ModTypeExp::Specs(specs, _) => {
                Rc::new(self.specs(specs, scope, &[], false, &mut vec![]))
            }
            ModTypeExp::With(base, ..) => self.sig_env(base, scope),
            ModTypeExp::Arrow(p, a, b, _) => {
                let mut inner = scope.clone();
                if let Some(p) = p {
                    let env = self.sig_env(a, scope);
                    inner
                        .mods
                        .insert(p.name.clone(), ModInfo { link: None, env });
                }
                self.sig_env(b, &inner)
            }
        }
    }

    /// Walks the specifications of a module type, as [`Walker::decls`].
    fn specs(
        &mut self,
        specs: &[Spec],
        scope: &Env,
        path: &[String],
        doc: bool,
        items: &mut Vec<Item>,
    ) -> Env {
        let mut inner = scope.clone();
        let mut env = Env::default();
        let start = items.len();
        for s in specs {
            match s {
                Spec::Val {
                    name,
                    type_params,
                    ty,
                    doc: d,
                    span,
                } => {
                    let link = self.link(doc, "term", path, &name.name);
                    let locals = param_names(type_params);
                    let sig_html = format!(
                        "{} {}{} : {}",
                        kw("val"),
                        self.def_name(&name.name, &link),
                        html::type_params(type_params),
                        self.ty(ty, TyLevel::Full, false, &inner, &locals)
                    );
                    env.vals.insert(name.name.clone(), link.clone());
                    inner.vals.insert(name.name.clone(), link.clone());
                    items.push(item(
                        Kind::Value,
                        path,
                        &name.name,
                        link,
                        sig_html,
                        d,
                        *span,
                    ));
                }
                Spec::Type {
                    name,
                    liftedness,
                    params,
                    def,
                    doc: d,
                    span,
                } => {
                    let link = self.link(doc, "type", path, &name.name);
                    let locals = param_names(params);
                    let def = match def {
                        Some(t) => {
                            format!(" = {}", self.ty(t, TyLevel::Full, false, &inner, &locals))
                        }
                        None => String::new(),
                    };
                    let sig_html = format!(
                        "{} {}{}{def}",
                        kw(type_keyword(*liftedness)),
                        self.def_name(&name.name, &link),
                        html::type_params(params)
                    );
                    env.types.insert(name.name.clone(), link.clone());
                    inner.types.insert(name.name.clone(), link.clone());
                    items.push(item(Kind::Type, path, &name.name, link, sig_html, d, *span));
                }
                Spec::Module {
                    name,
                    sig,
                    doc: d,
                    span,
                } => {
                    let link = self.link(doc, "term", path, &name.name);
                    let mut children = vec![];
                    let (menv, rest) = match sig {
                        ModTypeExp::Specs(ss, _) if doc => {
                            let members = child_path(path, &name.name);
                            let e = self.specs(ss, &inner, &members, true, &mut children);
                            (Rc::new(e), String::new())
                        }
                        s => (
                            self.sig_env(s, &inner),
                            format!(" : {}", self.mte_html(s, &inner)),
                        ),
                    };
                    let sig_html = format!(
                        "{} {}{rest}",
                        kw("module"),
                        self.def_name(&name.name, &link)
                    );
                    let info = ModInfo {
                        link: link.clone(),
                        env: menv,
                    };
                    env.mods.insert(name.name.clone(), info.clone());
                    inner.mods.insert(name.name.clone(), info);
                    let mut it = item(Kind::Module, path, &name.name, link, sig_html, d, *span);
                    it.children = children;
                    items.push(it);
                }
                Spec::Include(mte, span) => {
                    let e = self.sig_env(mte, &inner);
                    env.extend(&e);
                    inner.extend(&e);
                    let sig_html = format!("{} {}", kw("include"), self.mte_html(mte, &inner));
                    items.push(item(Kind::Include, path, "", None, sig_html, &None, *span));
                }
            }
        }
        if doc {
            self.render_docs(&mut items[start..], &inner);
        }
        env
    }

    /// A module type expression on one line.
    fn mte_html(&mut self, mte: &ModTypeExp, scope: &Env) -> String {
        match mte {
            ModTypeExp::Var(q) => {
                let text = esc(&q.full());
                match scope.sig(q).and_then(|m| m.link.as_ref()) {
                    Some(l) => html::link(&self.href(l), &text),
                    None => text,
                }
            }
            ModTypeExp::Specs(specs, _) => {
                let mut items = vec![];
                self.specs(specs, scope, &[], false, &mut items);
                let parts: Vec<String> = items.into_iter().map(|i| i.sig_html).collect();
                if parts.is_empty() {
                    "{}".to_string()
                } else {
                    format!("{{{}}}", parts.join(" "))
                }
            }
            ModTypeExp::With(base, q, params, te, _) => {
                let base_html = self.mte_html(base, scope);
                let base_html = match **base {
                    ModTypeExp::Arrow(..) => format!("({base_html})"),
                    _ => base_html,
                };
                let locals = param_names(params);
                // The refined type is a member of the base module type.
                let benv = self.sig_env(base, scope);
                let name = esc(&q.full());
                let name = match benv.type_link(q) {
                    Some(l) => html::link(&self.href(l), &name),
                    None => name,
                };
                format!(
                    "{base_html} {} {name}{} = {}",
                    kw("with"),
                    html::type_params(params),
                    self.ty(te, TyLevel::Full, false, scope, &locals)
                )
            }
            ModTypeExp::Arrow(p, a, b, _) => {
                let mut inner = scope.clone();
                let a_html = self.mte_html(a, scope);
                let left = match p {
                    Some(p) => {
                        let env = self.sig_env(a, scope);
                        inner
                            .mods
                            .insert(p.name.clone(), ModInfo { link: None, env });
                        format!("({}: {a_html})", esc(&p.name))
                    }
                    None => match **a {
                        ModTypeExp::Arrow(..) | ModTypeExp::With(..) => format!("({a_html})"),
                        _ => a_html,
                    },
                };
                format!("{left} -&gt; {}", self.mte_html(b, &inner))
            }
        }
    }

    /// A module expression on one line (structures are elided).
    fn mod_exp_html(&mut self, me: &ModExp, scope: &Env) -> String {
        match me {
            ModExp::Var(q) => {
                let text = esc(&q.full());
                match scope.module(q).and_then(|m| m.link.as_ref()) {
                    Some(l) => html::link(&self.href(l), &text),
                    None => text,
                }
            }
            ModExp::Struct(..) => "{…}".to_string(),
            ModExp::Import(p, _) => {
                let text = format!("\"{}\"", esc(p));
                let name = import_name(&self.cx.name, p);
                let text = match self.cx.pages.get(&name) {
                    Some(page) => html::link(&html::href(&self.cx.page, page, None), &text),
                    None => text,
                };
                format!("{} {text}", kw("import"))
            }
            ModExp::Apply(f, a, _) => {
                let f_html = self.mod_exp_html(f, scope);
                let a_html = self.mod_exp_html(a, scope);
                let a_html = match **a {
                    ModExp::Var(_) | ModExp::Struct(..) => a_html,
                    _ => format!("({a_html})"),
                };
                let f_html = match **f {
                    ModExp::Var(_) | ModExp::Apply(..) => f_html,
                    _ => format!("({f_html})"),
                };
                format!("{f_html} {a_html}")
            }
            ModExp::Ascribe(m, s, _) => {
                format!(
                    "{} : {}",
                    self.mod_exp_html(m, scope),
                    self.mte_html(s, scope)
                )
            }
            ModExp::Lambda(p, _, _, _) => {
                format!(
                    "\\({}: {}) -&gt; {{…}}",
                    esc(&p.name.name),
                    self.mte_html(&p.sig, scope)
                )
            }
        }
    }

    /// `val f [n] 'a : (x: [n]a) -> i32 -> t` for a value definition.
    fn val_sig(&self, v: &ValDecl, scope: &Env, link: &Option<Link>) -> String {
        let locals = param_names(&v.type_params);
        let fun = self.cx.funs.get(&(v.span.file.0, v.span.start));
        let mut parts: Vec<String> = vec![];
        for (i, p) in v.params.iter().enumerate() {
            let inferred = fun
                .and_then(|f| f.params.get(i))
                .map(|tp| parad_types::print::type_to_string(&tp.ty(), self.cx.type_params));
            parts.push(self.param_html(p, inferred, scope, &locals));
        }
        let ret = match (&v.ret, fun) {
            (Some(t), _) => self.ty(t, TyLevel::Full, false, scope, &locals),
            (None, Some(f)) => esc(&parad_types::print::type_to_string(
                &f.ret,
                self.cx.type_params,
            )),
            (None, None) => "?".to_string(),
        };
        parts.push(ret);
        format!(
            "{} {}{} : {}",
            kw("val"),
            self.def_name(&v.name.name, link),
            html::type_params(&v.type_params),
            parts.join(" -&gt; ")
        )
    }

    /// One parameter's type: `(x: t)` for a named parameter, else the
    /// type (as declared, else as inferred).
    fn param_html(
        &self,
        p: &Pat,
        inferred: Option<String>,
        scope: &Env,
        locals: &HashSet<String>,
    ) -> String {
        match p {
            Pat::Attr(_, p, _) => self.param_html(p, inferred, scope, locals),
            Pat::Ascribe(inner, t, _) => match inner.as_ref() {
                Pat::Id(x) => format!(
                    "({}: {})",
                    html::binder(&x.name),
                    self.ty(t, TyLevel::Full, false, scope, locals)
                ),
                _ => self.ty(t, TyLevel::Term, true, scope, locals),
            },
            _ => {
                let t = inferred.unwrap_or_else(|| "?".to_string());
                match p {
                    Pat::Id(x) => format!("({}: {})", html::binder(&x.name), esc(&t)),
                    _ if t.contains("->") => format!("({})", esc(&t)),
                    _ => esc(&t),
                }
            }
        }
    }

    /// Renders the doc comments of `items` (not of their members, which
    /// were rendered in their own scope) with links resolved in `scope`.
    fn render_docs(&mut self, items: &mut [Item], scope: &Env) {
        for it in items {
            if let Some(d) = &it.doc {
                it.doc_html = self.doc_html(d, it.span, scope);
            }
        }
    }

    /// A doc comment as HTML, its links resolved in `scope`; a link that
    /// does not resolve is shown unlinked, with a warning.
    pub fn doc_html(&mut self, doc: &str, span: Span, scope: &Env) -> String {
        let mut unresolved = vec![];
        let out = markdown::render(doc, &mut |name, ns| match scope.lookup(name, ns) {
            Some(l) => Some(html::href(&self.cx.page, &l.page, Some(&l.anchor))),
            None => {
                unresolved.push(format!("`{name}`@{}", ns.keyword()));
                None
            }
        });
        for u in unresolved {
            self.warnings.push(format!(
                "warning: {}: cannot resolve the doc link {u}",
                self.cx.sources.location(span)
            ));
        }
        out
    }
}

fn child_path(path: &[String], name: &str) -> Vec<String> {
    let mut p = path.to_vec();
    p.push(name.to_string());
    p
}

fn item(
    kind: Kind,
    path: &[String],
    name: &str,
    link: Option<Link>,
    sig_html: String,
    doc: &Option<String>,
    span: Span,
) -> Item {
    Item {
        kind,
        name: child_path(path, name).join("."),
        anchor: link.map(|l| l.anchor),
        sig_html,
        doc: doc.clone(),
        doc_html: String::new(),
        span,
        children: vec![],
    }
}

/// The names of type parameters (sizes are not types).
fn param_names(ps: &[TypeParam]) -> HashSet<String> {
    ps.iter()
        .filter_map(|p| match p {
            TypeParam::Type(n, _) => Some(n.name.clone()),
            TypeParam::Size(_) => None,
        })
        .collect()
}

fn type_keyword(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "type",
        Liftedness::SizeLifted => "type~",
        Liftedness::Lifted => "type^",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names() {
        assert_eq!(
            split_qualified("M.N.f"),
            (vec!["M".into(), "N".into()], "f".into())
        );
        assert_eq!(split_qualified("f32.+"), (vec!["f32".into()], "+".into()));
        assert_eq!(split_qualified("..."), (vec![], "...".into()));
        assert_eq!(split_qualified("f"), (vec![], "f".into()));
    }

    #[test]
    fn import_names() {
        assert_eq!(import_name("lib/a.fut", "b"), "lib/b.fut");
        assert_eq!(import_name("lib/a.fut", "../c/d"), "c/d.fut");
        assert_eq!(import_name("a.fut", "./x"), "x.fut");
    }
}
