//! Prints the AST back as Futhark source text.
//!
//! The printer serves dumps of the program after stages that rewrite the
//! tree (for example the type checker's insertion of implicit `map` and
//! `replicate` calls), so its output must be valid source that means the
//! same thing. The property it keeps, checked by the round-trip tests
//! (`tests/print_roundtrip.rs`): for every program `p` our parser accepts,
//! parsing `program(p)` gives a tree whose [`crate::sexp`] rendering equals
//! that of `p`, declaration by declaration. Spans, expression ids,
//! parentheses and ordinary comments are not kept; doc comments are.
//! Trees made by later stages may hold nodes the parser never makes (an
//! operator as a plain variable, a NaN literal); they print as source
//! with the same meaning.
//!
//! Layout: one declaration per paragraph; `let` chains, `loop` bodies and
//! `match` cases on their own lines, aligned on the column where the form
//! starts; everything else on one line. Operators are printed infix, with
//! parentheses only where our parser (precedence table in
//! `parser/exps.rs`) would otherwise read a different tree, or where a form
//! that extends to the right (`if`, `let`, lambda, ...) would swallow what
//! follows it.
//!
//! Sugar the parser desugars is printed desugared: `let a[i] = v in e` is
//! printed `let a = a with [i] = v in e`, `a with [i].x = v` as nested
//! updates, `def x + y = e` as `def (+) x y = e`.

use crate::ast::*;
use std::fmt::Write;

/// A whole program: declarations separated by blank lines.
pub fn program(p: &Program) -> String {
    let mut pr = Printer::default();
    pr.decls(&p.decls);
    pr.out.push('\n');
    pr.out
}

/// One declaration, with its doc comment and attributes.
pub fn decl(d: &Decl) -> String {
    let mut pr = Printer::default();
    pr.decl(d);
    pr.out
}

/// One expression, as it may stand alone or as a function body.
pub fn exp(e: &Exp) -> String {
    let mut pr = Printer::default();
    pr.exp(e, L_EXP, Follow::Nothing);
    pr.out
}

/// One pattern, as it may stand in a `let`.
pub fn pat(p: &Pat) -> String {
    let mut pr = Printer::default();
    pr.pat(p, PatLevel::Full, false);
    pr.out
}

/// One type expression.
pub fn type_exp(t: &TypeExp) -> String {
    let mut pr = Printer::default();
    pr.ty(t, TyLevel::Full, false);
    pr.out
}

/// Where [`write_type_exp`] writes a type: source text, and the pieces a
/// sink may want to render differently. The printer's own sink writes
/// everything as is; the documentation (`parad doc`) escapes the text for
/// HTML and turns type names into links. What to parenthesise is decided
/// by [`write_type_exp`] alone, so every sink writes the same type.
pub trait TypeSink {
    /// Writes source text (punctuation, spaces, field, constructor and
    /// size names) as it stands in the source.
    fn text(&mut self, s: &str);

    /// Writes a (possibly qualified) type name; by default as written.
    fn type_name(&mut self, name: &QualName) {
        self.text(&name.full());
    }

    /// Writes the expression of a size `[e]` (the brackets are written
    /// around it); by default as [`exp`] prints it.
    fn size_exp(&mut self, e: &Exp) {
        self.text(&exp(e));
    }
}

/// Writes the type `t` to `out` as it may stand at level `lvl`, with the
/// parentheses the parser needs to read it back as the same type.
/// `arrow_follows`: a `->` comes next in the same type, which an
/// existential's body must not take in (so the existential is
/// parenthesised).
pub fn write_type_exp<S: TypeSink + ?Sized>(
    out: &mut S,
    t: &TypeExp,
    lvl: TyLevel,
    arrow_follows: bool,
) {
    fn parens<S: TypeSink + ?Sized>(out: &mut S, on: bool, f: impl FnOnce(&mut S)) {
        if on {
            out.text("(");
        }
        f(out);
        if on {
            out.text(")");
        }
    }
    fn size<S: TypeSink + ?Sized>(out: &mut S, d: &SizeExp) {
        match d {
            SizeExp::Any(_) => out.text("[]"),
            SizeExp::Exp(e) => {
                out.text("[");
                out.size_exp(e);
                out.text("]");
            }
        }
    }
    match t {
        TypeExp::Named { name, args, .. } => {
            parens(out, !args.is_empty() && lvl > TyLevel::Term, |out| {
                out.type_name(name);
                for a in args {
                    out.text(" ");
                    match a {
                        TypeArg::Size(d) => size(out, d),
                        TypeArg::Type(t) => write_type_exp(out, t, TyLevel::Atom, false),
                    }
                }
            });
        }
        TypeExp::Tuple(ts, _) => {
            out.text("(");
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    out.text(", ");
                }
                write_type_exp(out, t, TyLevel::Full, false);
            }
            out.text(")");
        }
        TypeExp::Record(fs, _) => {
            out.text("{");
            for (i, (n, t)) in fs.iter().enumerate() {
                if i > 0 {
                    out.text(", ");
                }
                out.text(&n.name);
                out.text(": ");
                write_type_exp(out, t, TyLevel::Full, false);
            }
            out.text("}");
        }
        TypeExp::Array(..) | TypeExp::Unique(..) => {
            // In a constructor payload the element is a payload too.
            let paren = lvl == TyLevel::Atom;
            let (inner, arrow) = match lvl {
                TyLevel::Payload => (TyLevel::Payload, arrow_follows),
                TyLevel::Atom => (TyLevel::Term, false),
                _ => (TyLevel::Term, arrow_follows),
            };
            parens(out, paren, |out| match t {
                TypeExp::Array(d, elem, _) => {
                    size(out, d);
                    write_type_exp(out, elem, inner, arrow);
                }
                TypeExp::Unique(elem, _) => {
                    out.text("*");
                    // `**` would be one operator symbol.
                    let glued = matches!(**elem, TypeExp::Unique(..));
                    parens(out, glued, |out| {
                        write_type_exp(out, elem, inner, arrow && !glued)
                    });
                }
                _ => {}
            });
        }
        TypeExp::Arrow(n, a, b, _) => {
            parens(out, lvl > TyLevel::Full, |out| {
                match n {
                    Some(n) => {
                        out.text("(");
                        out.text(&n.name);
                        out.text(": ");
                        write_type_exp(out, a, TyLevel::Full, false);
                        out.text(")");
                    }
                    None => write_type_exp(out, a, TyLevel::Term, true),
                }
                out.text(" -> ");
                write_type_exp(out, b, TyLevel::Full, arrow_follows && lvl == TyLevel::Full);
            });
        }
        TypeExp::Sum(cs, _) => {
            parens(out, lvl > TyLevel::Term, |out| {
                for (i, (c, ts)) in cs.iter().enumerate() {
                    if i > 0 {
                        out.text(" | ");
                    }
                    out.text("#");
                    out.text(&c.name);
                    for t in ts {
                        out.text(" ");
                        write_type_exp(out, t, TyLevel::Payload, false);
                    }
                }
            });
        }
        TypeExp::Exists(ns, body, _) => {
            parens(out, lvl > TyLevel::Term || arrow_follows, |out| {
                out.text("?");
                for n in ns {
                    out.text("[");
                    out.text(&n.name);
                    out.text("]");
                }
                out.text(".");
                write_type_exp(out, body, TyLevel::Full, false);
            });
        }
    }
}

// ───────────────────────────── precedence ─────────────────────────────

/// Expression levels, loosest first: a context asks for a minimum level
/// and an expression below it is parenthesised.
const L_EXP: u8 = 0; // `e : t`, `e :> t`
const L_RANGE: u8 = 1; // `a..<b`
const L_BIN: u8 = 2; // infix operator of precedence p: L_BIN + p
const L_UNARY: u8 = 14; // `-e`, `!e`
const L_APP: u8 = 15; // application, constructor application, keyword forms
const L_POSTFIX: u8 = 16; // `a[i]`, `e.x`
const L_ATOM: u8 = 17;

/// Precedence of `with` among the infix operators.
const PREC_WITH: u8 = 1;

/// Precedence and right-associativity of an infix operator: the parser's
/// (the longest built-in prefix decides), and a backquoted name binds
/// loosest.
fn op_prec(op: &QualName) -> (u8, bool) {
    if !is_symbolic(&op.name) {
        return (0, false);
    }
    crate::parser::symbol_prec(&op.name)
}

/// An operator symbol rather than a name (`+`, `|>`, not `f`): written in
/// parentheses where it is bound or used as a value.
pub fn is_symbolic(name: &str) -> bool {
    !name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'')
}

fn level(e: &Exp) -> u8 {
    match &e.kind {
        ExpKind::Ascribe(..) | ExpKind::Coerce(..) => L_EXP,
        ExpKind::Range { .. } => L_RANGE,
        ExpKind::BinOp(op, ..) => L_BIN + op_prec(op).0,
        ExpKind::Update(..) | ExpKind::RecordUpdate(..) => L_BIN + PREC_WITH,
        ExpKind::Negate(_) | ExpKind::Not(_) => L_UNARY,
        ExpKind::Apply(..)
        | ExpKind::If(..)
        | ExpKind::Let { .. }
        | ExpKind::LetFun { .. }
        | ExpKind::Lambda { .. }
        | ExpKind::Loop { .. }
        | ExpKind::Match(..)
        | ExpKind::Assert(..)
        | ExpKind::Attr(..) => L_APP,
        ExpKind::Constr(_, args) if !args.is_empty() => L_APP,
        ExpKind::Index(..) | ExpKind::Project(..) => L_POSTFIX,
        _ => L_ATOM,
    }
}

/// Forms whose last part is a full expression, so they extend as far
/// right as they can.
fn is_open(e: &Exp) -> bool {
    matches!(
        e.kind,
        ExpKind::If(..)
            | ExpKind::Let { .. }
            | ExpKind::LetFun { .. }
            | ExpKind::Lambda { .. }
            | ExpKind::Loop { .. }
            | ExpKind::Match(..)
            | ExpKind::Assert(..)
            | ExpKind::Attr(..)
    )
}

/// Forms printed over several lines.
fn is_block(e: &Exp) -> bool {
    match &e.kind {
        ExpKind::Let { .. } | ExpKind::LetFun { .. } | ExpKind::Loop { .. } => true,
        ExpKind::Match(..) => true,
        ExpKind::If(_, t, f) => is_block(t) || is_block(f),
        ExpKind::Attr(_, e) | ExpKind::Assert(_, e) => is_block(e),
        _ => false,
    }
}

/// What follows an expression in the text being printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    /// A token no expression can take in (`)`, `,`, `in`, `then`, end).
    Nothing,
    /// `case`: only a `match` would take it in.
    Case,
    /// Anything, such as an infix operator or `:`.
    Anything,
}

/// Type levels, loosest first: how loosely a type may be written where it
/// stands. A type below the level its context asks for is parenthesised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TyLevel {
    /// A full type, with arrows: anywhere a type may stand.
    Full,
    /// A type term (named type with arguments, array, uniqueness,
    /// existential, sum): no arrow at the top without parentheses.
    Term,
    /// A constructor payload: arrays and uniqueness of atoms.
    Payload,
    /// An atom: an argument of a type constructor.
    Atom,
}

/// Pattern levels: a full pattern (with ascription), a constructor
/// application, an atom (parameters, constructor arguments).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PatLevel {
    Full,
    Constr,
    Atom,
}

#[derive(Default)]
struct Printer {
    out: String,
    /// Indentation of declarations (inside module structures).
    ind: usize,
}

/// The printer writes types as source text, sizes in place (so that their
/// layout follows the column they start at).
impl TypeSink for Printer {
    fn text(&mut self, s: &str) {
        self.w(s);
    }

    fn size_exp(&mut self, e: &Exp) {
        self.exp(e, L_EXP, Follow::Nothing);
    }
}

impl Printer {
    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// The column the next character goes to.
    fn col(&self) -> usize {
        let line = match self.out.rfind('\n') {
            Some(i) => &self.out[i + 1..],
            None => &self.out[..],
        };
        line.chars().count()
    }

    fn nl(&mut self, col: usize) {
        self.out.push('\n');
        for _ in 0..col {
            self.out.push(' ');
        }
    }

    fn parens(&mut self, on: bool, f: impl FnOnce(&mut Self)) {
        if on {
            self.w("(");
        }
        f(self);
        if on {
            self.w(")");
        }
    }

    fn sep<T>(&mut self, items: &[T], sep: &str, mut f: impl FnMut(&mut Self, &T)) {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.w(sep);
            }
            f(self, x);
        }
    }

    // ───────────── names and literals ─────────────

    /// A value name in binding position: `(+)` for an operator.
    fn binder(&mut self, name: &str) {
        if is_symbolic(name) {
            self.w(&format!("({name})"));
        } else {
            self.w(name);
        }
    }

    fn lit(&mut self, l: &Lit) {
        match l {
            Lit::Int { value, suffix } => {
                let _ = write!(self.out, "{value}");
                match suffix {
                    Some(IntSuffix::Int(t)) => self.w(t.name()),
                    Some(IntSuffix::Float(t)) => self.w(t.name()),
                    None => {}
                }
            }
            Lit::Float { value, suffix } => {
                // `{:?}` is the shortest text that reads back as the same
                // number, and always has a `.` or an exponent.
                if value.is_nan() {
                    // No literal is NaN; the named constant is.
                    let t = suffix.map_or("f64", |t| t.name());
                    self.w(&format!("{t}.nan"));
                    return;
                }
                if value.is_finite() {
                    let _ = write!(self.out, "{value:?}");
                } else {
                    // An overflowing literal is infinite.
                    self.w("1e999");
                }
                if let Some(t) = suffix {
                    self.w(t.name());
                }
            }
            Lit::Bool(b) => self.w(if *b { "true" } else { "false" }),
            Lit::Char(c) => {
                self.w("'");
                match char::from_u32(*c) {
                    Some('\'') => self.w("\\'"),
                    Some('"') => self.w("\""),
                    Some(ch) => escape_char(&mut self.out, ch),
                    None => {
                        let _ = write!(self.out, "\\U{c:08x}");
                    }
                }
                self.w("'");
            }
        }
    }

    fn string(&mut self, s: &str) {
        self.w("\"");
        for ch in s.chars() {
            if ch == '"' {
                self.w("\\\"");
            } else {
                escape_char(&mut self.out, ch);
            }
        }
        self.w("\"");
    }

    fn attr(&mut self, a: &Attr) {
        match a {
            Attr::Atom(s, _) => self.w(s),
            Attr::Int(i, _) => {
                let _ = write!(self.out, "{i}");
            }
            Attr::Comp(s, args, _) => {
                self.w(s);
                self.w("(");
                self.sep(args, ", ", |p, a| p.attr(a));
                self.w(")");
            }
        }
    }

    fn type_params(&mut self, ps: &[TypeParam]) {
        for tp in ps {
            self.w(" ");
            self.w(&tp.source());
        }
    }

    fn doc(&mut self, doc: &Option<String>) {
        let Some(d) = doc else { return };
        for (i, line) in d.split('\n').enumerate() {
            match (i, line.is_empty()) {
                (0, _) => self.w(&format!("-- | {line}")),
                (_, true) => self.w("--"),
                (_, false) => self.w(&format!("-- {line}")),
            }
            self.nl(self.ind);
        }
    }

    // ───────────── declarations ─────────────

    fn decls(&mut self, ds: &[Decl]) {
        for (i, d) in ds.iter().enumerate() {
            if i > 0 {
                self.w("\n");
                self.nl(self.ind);
            }
            self.decl(d);
        }
    }

    fn decl(&mut self, d: &Decl) {
        self.doc(decl_doc(d));
        self.decl_nodoc(d);
    }

    fn decl_nodoc(&mut self, d: &Decl) {
        match d {
            Decl::Val(v) => self.val_decl(v),
            Decl::Type(t) => {
                for a in &t.attrs {
                    self.w("#[");
                    self.attr(a);
                    self.w("]");
                    self.nl(self.ind);
                }
                self.w(lifted_kw(t.liftedness));
                self.w(" ");
                self.w(&t.name.name);
                self.type_params(&t.params);
                self.w(" = ");
                self.ty(&t.def, TyLevel::Full, false);
            }
            Decl::Module(m) => {
                self.w("module ");
                self.w(&m.name.name);
                for p in &m.params {
                    self.w(" ");
                    self.mod_param(p);
                }
                if let Some(s) = &m.sig {
                    self.w(" : ");
                    self.mod_type(s, MtLevel::Full);
                }
                self.w(" = ");
                self.mod_exp(&m.body, MeLevel::Full);
            }
            Decl::ModType(m) => {
                self.w("module type ");
                self.w(&m.name.name);
                self.w(" = ");
                self.mod_type(&m.def, MtLevel::Full);
            }
            Decl::Open(m, _) => {
                self.w("open ");
                self.mod_exp(m, MeLevel::Full);
            }
            Decl::Import(s, _) => {
                self.w("import ");
                self.string(s);
            }
            Decl::Local(d, _) => {
                self.w("local ");
                self.decl_nodoc(d);
            }
        }
    }

    fn val_decl(&mut self, v: &ValDecl) {
        for a in &v.attrs {
            self.w("#[");
            self.attr(a);
            self.w("]");
            self.nl(self.ind);
        }
        self.w(match v.kind {
            ValKind::Def => "def ",
            ValKind::Let => "let ",
            ValKind::Entry => "entry ",
        });
        self.binder(&v.name.name);
        self.type_params(&v.type_params);
        self.params(&v.params);
        if let Some(t) = &v.ret {
            self.w(" : ");
            self.ty(t, TyLevel::Full, false);
        }
        self.w(" =");
        self.body(&v.body, self.ind + 2);
    }

    /// A definition's body after its `=`: on the next line, indented, if it
    /// spans several lines.
    fn body(&mut self, e: &Exp, indent: usize) {
        if is_block(e) {
            self.nl(indent);
        } else {
            self.w(" ");
        }
        self.exp(e, L_EXP, Follow::Nothing);
    }

    fn params(&mut self, ps: &[Pat]) {
        for p in ps {
            self.w(" ");
            self.param(p);
        }
    }

    /// A function or lambda parameter: an atomic pattern; literals and
    /// constructors are parenthesised (`def f -1` would read as an infix
    /// definition, and a lambda's later parameters cannot start with one).
    fn param(&mut self, p: &Pat) {
        let lit = match p {
            Pat::Lit(..) | Pat::NegLit(..) => true,
            Pat::Constr(_, args, _) => args.is_empty(),
            _ => false,
        };
        self.parens(lit, |pr| pr.pat(p, PatLevel::Atom, false));
    }

    fn mod_param(&mut self, p: &ModParam) {
        self.w(&format!("({}: ", p.name.name));
        self.mod_type(&p.sig, MtLevel::Full);
        self.w(")");
    }

    // ───────────── modules ─────────────

    fn mod_exp(&mut self, m: &ModExp, lvl: MeLevel) {
        match m {
            ModExp::Var(q) => self.w(&q.full()),
            ModExp::Struct(ds, _) => {
                self.w("{");
                if !ds.is_empty() {
                    let outer = self.ind;
                    self.ind = outer + 2;
                    self.nl(self.ind);
                    self.decls(ds);
                    self.ind = outer;
                    self.nl(outer);
                }
                self.w("}");
            }
            ModExp::Import(s, _) => {
                let paren = lvl == MeLevel::Arg;
                self.parens(paren, |p| {
                    p.w("import ");
                    p.string(s);
                });
            }
            ModExp::Apply(f, a, _) => {
                self.parens(lvl >= MeLevel::Atom, |p| {
                    p.mod_exp(f, MeLevel::App);
                    p.w(" ");
                    p.mod_exp(a, MeLevel::Arg);
                });
            }
            ModExp::Ascribe(e, t, _) => {
                self.parens(lvl > MeLevel::Ascribe, |p| {
                    p.mod_exp(e, MeLevel::Ascribe);
                    p.w(" : ");
                    p.mod_type(t, MtLevel::Full);
                });
            }
            ModExp::Lambda(param, sig, body, _) => {
                // The body extends to the right: only a full context ends
                // after it.
                self.parens(lvl > MeLevel::Full, |p| {
                    p.w("\\");
                    p.mod_param(param);
                    if let Some(s) = sig {
                        p.w(" : ");
                        p.mod_type(s, MtLevel::Atom);
                    }
                    p.w(" -> ");
                    p.mod_exp(body, MeLevel::Full);
                });
            }
        }
    }

    fn mod_type(&mut self, t: &ModTypeExp, lvl: MtLevel) {
        match t {
            ModTypeExp::Var(q) => self.w(&q.full()),
            ModTypeExp::Specs(specs, _) => {
                self.w("{");
                let outer = self.ind;
                self.ind = outer + 2;
                for s in specs {
                    self.nl(self.ind);
                    self.spec(s);
                }
                self.ind = outer;
                if !specs.is_empty() {
                    self.nl(outer);
                }
                self.w("}");
            }
            ModTypeExp::With(base, name, params, te, _) => {
                // The refining type takes in a following `->`.
                self.parens(lvl > MtLevel::With, |p| {
                    p.mod_type(base, MtLevel::With);
                    p.w(" with ");
                    p.w(&name.full());
                    p.type_params(params);
                    p.w(" = ");
                    p.ty(te, TyLevel::Full, false);
                });
            }
            ModTypeExp::Arrow(n, a, b, _) => {
                self.parens(lvl > MtLevel::Full, |p| {
                    match n {
                        Some(n) => {
                            p.w(&format!("({}: ", n.name));
                            p.mod_type(a, MtLevel::Full);
                            p.w(")");
                        }
                        None => p.mod_type(a, MtLevel::Atom),
                    }
                    p.w(" -> ");
                    p.mod_type(b, MtLevel::Full);
                });
            }
        }
    }

    fn spec(&mut self, s: &Spec) {
        match s {
            Spec::Val {
                name,
                type_params,
                ty,
                doc,
                ..
            } => {
                self.doc(doc);
                self.w("val ");
                self.binder(&name.name);
                self.type_params(type_params);
                self.w(" : ");
                self.ty(ty, TyLevel::Full, false);
            }
            Spec::Type {
                name,
                liftedness,
                params,
                def,
                doc,
                ..
            } => {
                self.doc(doc);
                self.w(lifted_kw(*liftedness));
                self.w(" ");
                self.w(&name.name);
                self.type_params(params);
                if let Some(t) = def {
                    self.w(" = ");
                    self.ty(t, TyLevel::Full, false);
                }
            }
            Spec::Module { name, sig, doc, .. } => {
                self.doc(doc);
                self.w(&format!("module {} : ", name.name));
                self.mod_type(sig, MtLevel::Full);
            }
            Spec::Include(t, _) => {
                self.w("include ");
                self.mod_type(t, MtLevel::Full);
            }
        }
    }

    // ───────────── types ─────────────

    /// See [`write_type_exp`].
    fn ty(&mut self, t: &TypeExp, lvl: TyLevel, arrow_follows: bool) {
        write_type_exp(self, t, lvl, arrow_follows);
    }

    // ───────────── patterns ─────────────

    /// `arrow_stops`: in a `case`, where an ascription's type may not
    /// contain a top-level `->`.
    fn pat(&mut self, p: &Pat, lvl: PatLevel, arrow_stops: bool) {
        match p {
            Pat::Id(i) => self.binder(&i.name),
            Pat::Wildcard(_) => self.w("_"),
            Pat::Tuple(ps, _) => {
                self.w("(");
                self.sep(ps, ", ", |pr, x| pr.pat(x, PatLevel::Full, false));
                self.w(")");
            }
            Pat::Record(fs, _) => {
                self.w("{");
                self.sep(fs, ", ", |pr, (n, sub)| {
                    pr.w(&n.name);
                    if let Some(sub) = sub {
                        pr.w(" = ");
                        pr.pat(sub, PatLevel::Full, false);
                    }
                });
                self.w("}");
            }
            Pat::Ascribe(inner, t, _) => {
                let paren = lvl > PatLevel::Full || (arrow_stops && ty_takes_arrow(t));
                self.parens(paren, |pr| {
                    pr.pat(inner, PatLevel::Constr, false);
                    pr.w(": ");
                    pr.ty(t, TyLevel::Full, false);
                });
            }
            Pat::Lit(l, _) => self.lit(l),
            Pat::NegLit(l, _) => {
                self.w("-");
                self.lit(l);
            }
            Pat::Constr(c, args, _) => {
                self.parens(!args.is_empty() && lvl > PatLevel::Constr, |pr| {
                    pr.w(&format!("#{}", c.name));
                    for a in args {
                        pr.w(" ");
                        pr.pat(a, PatLevel::Atom, false);
                    }
                });
            }
            Pat::Attr(a, inner, _) => {
                // Before an ascription the attribute would take in the
                // whole ascribed pattern.
                self.parens(lvl == PatLevel::Constr, |pr| {
                    pr.w("#[");
                    pr.attr(a);
                    pr.w("] ");
                    let inner_lvl = if lvl == PatLevel::Atom {
                        PatLevel::Atom
                    } else {
                        PatLevel::Full
                    };
                    pr.pat(inner, inner_lvl, arrow_stops);
                });
            }
        }
    }

    // ───────────── expressions ─────────────

    /// Prints `e` where the context needs at least level `min` and `follow`
    /// comes after it.
    fn exp(&mut self, e: &Exp, min: u8, follow: Follow) {
        let closed = match follow {
            Follow::Nothing => false,
            Follow::Case => matches!(e.kind, ExpKind::Match(..)),
            Follow::Anything => is_open(e),
        };
        if level(e) < min || closed {
            self.w("(");
            self.exp_bare(e, Follow::Nothing);
            self.w(")");
        } else {
            self.exp_bare(e, follow);
        }
    }

    fn dims(&mut self, idx: &[DimIndex]) {
        self.w("[");
        for (i, d) in idx.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            match d {
                DimIndex::Fix(e) => self.exp(e, L_RANGE, Follow::Nothing),
                DimIndex::Slice { start, end, stride } => {
                    // A `:` comes after the start, and after the end when
                    // there is a stride.
                    if let Some(s) = start {
                        self.exp(s, L_RANGE, Follow::Anything);
                    }
                    self.w(":");
                    if let Some(e) = end {
                        let f = if stride.is_some() {
                            Follow::Anything
                        } else {
                            Follow::Nothing
                        };
                        self.exp(e, L_RANGE, f);
                    }
                    if let Some(s) = stride {
                        self.w(":");
                        self.exp(s, L_RANGE, Follow::Nothing);
                    }
                }
            }
        }
        self.w("]");
    }

    /// An operator as it stands between its operands: `+`, `f32.+`, `` `f` ``.
    fn infix_op(&mut self, op: &QualName) {
        if is_symbolic(&op.name) {
            self.w(&op.full());
        } else {
            self.w(&format!("`{}`", op.full()));
        }
    }

    fn exp_bare(&mut self, e: &Exp, follow: Follow) {
        match &e.kind {
            ExpKind::Lit(l) => self.lit(l),
            ExpKind::StringLit(s) => self.string(s),
            ExpKind::Var(q) => {
                if is_symbolic(&q.name) {
                    // Not produced by the parser; an operator used as a value.
                    self.w(&format!("({})", q.full()));
                } else {
                    self.w(&q.full());
                }
            }
            ExpKind::Hole => self.w("???"),
            ExpKind::Tuple(es) => {
                self.w("(");
                self.sep(es, ", ", |p, e| p.exp(e, L_EXP, Follow::Nothing));
                if es.len() == 1 {
                    self.w(",");
                }
                self.w(")");
            }
            ExpKind::Record(fs) => {
                self.w("{");
                self.sep(fs, ", ", |p, f| match f {
                    FieldExp::Explicit(n, e) => {
                        p.w(&format!("{} = ", n.name));
                        p.exp(e, L_EXP, Follow::Nothing);
                    }
                    FieldExp::Implicit(n) => p.w(&n.name),
                });
                self.w("}");
            }
            ExpKind::ArrayLit(es) => {
                self.w("[");
                self.sep(es, ", ", |p, e| p.exp(e, L_EXP, Follow::Nothing));
                self.w("]");
            }
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => {
                self.exp(start, L_BIN, Follow::Anything);
                if let Some(s) = second {
                    self.w("..");
                    self.exp(s, L_BIN, Follow::Anything);
                }
                self.w(match kind {
                    RangeEnd::UpToExclusive => "..<",
                    RangeEnd::DownToExclusive => "..>",
                    RangeEnd::Inclusive => "...",
                });
                self.exp(end, L_BIN, follow);
            }
            ExpKind::Project(base, f) => {
                // `r.x` would read as one qualified name, and `1.0` as a
                // float.
                let numeric = f.name.starts_with(|c: char| c.is_ascii_digit());
                let paren = match &base.kind {
                    ExpKind::Var(_) => !numeric,
                    ExpKind::Lit(_) | ExpKind::Constr(..) => true,
                    _ => level(base) < L_POSTFIX,
                };
                self.parens(paren, |p| p.exp_bare(base, Follow::Nothing));
                self.w(".");
                self.w(&f.name);
            }
            ExpKind::Index(base, idx) => {
                // `#c[i]` would be a constructor with an array payload.
                let paren = matches!(base.kind, ExpKind::Constr(..)) || level(base) < L_POSTFIX;
                self.parens(paren, |p| p.exp_bare(base, Follow::Nothing));
                self.dims(idx);
            }
            ExpKind::Update(base, idx, v) => {
                self.exp(base, L_BIN + PREC_WITH, Follow::Anything);
                self.w(" with ");
                self.dims(idx);
                self.w(" = ");
                self.exp(v, L_BIN + PREC_WITH + 1, follow);
            }
            ExpKind::RecordUpdate(base, path, v) => {
                self.exp(base, L_BIN + PREC_WITH, Follow::Anything);
                self.w(" with ");
                let names: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
                self.w(&names.join("."));
                self.w(" = ");
                self.exp(v, L_BIN + PREC_WITH + 1, follow);
            }
            ExpKind::Apply(f, args) => {
                // `#c x` would be a constructor with a payload.
                let paren = matches!(f.kind, ExpKind::Constr(..)) || level(f) < L_POSTFIX;
                self.parens(paren, |p| p.exp_bare(f, Follow::Nothing));
                for a in args {
                    self.w(" ");
                    self.exp(a, L_POSTFIX, Follow::Anything);
                }
            }
            ExpKind::BinOp(op, a, b) => {
                let (prec, right) = op_prec(op);
                let l = L_BIN + prec;
                let (lmin, rmin) = if right { (l + 1, l) } else { (l, l + 1) };
                self.exp(a, lmin, Follow::Anything);
                self.w(" ");
                self.infix_op(op);
                self.w(" ");
                self.exp(b, rmin, follow);
            }
            ExpKind::Negate(x) | ExpKind::Not(x) => {
                self.w(if matches!(e.kind, ExpKind::Negate(_)) {
                    "-"
                } else {
                    "!"
                });
                // `--` starts a comment and `-!` is one operator symbol.
                let glued = matches!(x.kind, ExpKind::Negate(_) | ExpKind::Not(_));
                if glued {
                    self.w("(");
                    self.exp_bare(x, Follow::Nothing);
                    self.w(")");
                } else {
                    self.exp(x, L_UNARY, follow);
                }
            }
            ExpKind::If(..) => self.if_chain(e, follow),
            ExpKind::Let { .. } | ExpKind::LetFun { .. } => self.let_chain(e, follow),
            ExpKind::Lambda { params, ret, body } => {
                let col = self.col();
                self.w("\\");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        self.w(" ");
                    }
                    self.param(p);
                }
                if let Some(t) = ret {
                    self.w(" : ");
                    self.ty(t, TyLevel::Term, true);
                }
                self.w(" ->");
                if is_block(body) {
                    self.nl(col + 2);
                } else {
                    self.w(" ");
                }
                self.exp(body, L_EXP, follow);
            }
            ExpKind::OpSection(op) => {
                self.w("(");
                self.infix_op(op);
                self.w(")");
            }
            ExpKind::OpSectionLeft(op, x) => {
                self.w("(");
                self.exp(x, L_UNARY, Follow::Anything);
                self.w(" ");
                self.infix_op(op);
                self.w(")");
            }
            ExpKind::OpSectionRight(op, x) => {
                self.w("(");
                self.infix_op(op);
                self.w(" ");
                self.exp(x, L_EXP, Follow::Nothing);
                self.w(")");
            }
            ExpKind::ProjectSection(steps) => {
                self.w("(");
                for s in steps {
                    self.w(".");
                    match s {
                        SectionStep::Field(f) => self.w(&f.name),
                        SectionStep::Index(idx) => self.dims(idx),
                    }
                }
                self.w(")");
            }
            ExpKind::Loop {
                sizes,
                pat,
                init,
                form,
                body,
            } => {
                let col = self.col();
                self.w("loop ");
                for s in sizes {
                    self.w(&format!("[{}] ", s.name));
                }
                self.pat(pat, PatLevel::Full, false);
                if let Some(i) = init {
                    self.w(" = ");
                    self.exp(i, L_EXP, Follow::Nothing);
                }
                match form {
                    LoopForm::For(i, n) => {
                        self.w(&format!(" for {} < ", i.name));
                        self.exp(n, L_EXP, Follow::Nothing);
                    }
                    LoopForm::ForIn(p, xs) => {
                        self.w(" for ");
                        self.pat(p, PatLevel::Full, false);
                        self.w(" in ");
                        self.exp(xs, L_EXP, Follow::Nothing);
                    }
                    LoopForm::While(c) => {
                        self.w(" while ");
                        self.exp(c, L_EXP, Follow::Nothing);
                    }
                }
                self.w(" do");
                self.nl(col + 2);
                self.exp(body, L_EXP, follow);
            }
            ExpKind::Ascribe(x, t) | ExpKind::Coerce(x, t) => {
                self.exp(x, L_EXP, Follow::Anything);
                self.w(if matches!(e.kind, ExpKind::Ascribe(..)) {
                    " : "
                } else {
                    " :> "
                });
                self.ty(t, TyLevel::Full, false);
            }
            ExpKind::Assert(c, x) => {
                self.w("assert ");
                self.exp(c, L_POSTFIX, Follow::Anything);
                self.w(" ");
                self.exp(x, L_EXP, follow);
            }
            ExpKind::Match(scrut, cases) => {
                let col = self.col();
                self.w("match ");
                self.exp(scrut, L_EXP, Follow::Case);
                let n = cases.len();
                for (i, (p, b)) in cases.iter().enumerate() {
                    self.nl(col);
                    self.w("case ");
                    self.pat(p, PatLevel::Full, true);
                    self.w(" -> ");
                    let f = if i + 1 < n { Follow::Case } else { follow };
                    self.exp(b, L_EXP, f);
                }
            }
            ExpKind::Constr(c, args) => {
                self.w(&format!("#{}", c.name));
                for a in args {
                    self.w(" ");
                    self.exp(a, L_POSTFIX, Follow::Anything);
                }
            }
            ExpKind::Attr(a, x) => {
                self.w("#[");
                self.attr(a);
                self.w("] ");
                self.exp(x, L_EXP, follow);
            }
            ExpKind::QualParens(m, x) => {
                self.w(&m.full());
                self.w(".(");
                self.exp(x, L_EXP, Follow::Nothing);
                self.w(")");
            }
        }
    }

    /// `if`: on one line, or with `then` and `else` on lines of their own
    /// when a branch spans lines; `else if` chains one condition a line.
    fn if_chain(&mut self, e: &Exp, follow: Follow) {
        let col = self.col();
        let mut cur = e;
        while let ExpKind::If(c, t, f) = &cur.kind {
            self.w("if ");
            self.exp(c, L_EXP, Follow::Nothing);
            let chain = matches!(f.kind, ExpKind::If(..));
            let multi = chain || !std::ptr::eq(cur, e);
            if is_block(t) || (!chain && is_block(f)) {
                self.nl(col);
                self.w("then ");
                self.exp(t, L_EXP, Follow::Nothing);
                self.nl(col);
            } else {
                self.w(" then ");
                self.exp(t, L_EXP, Follow::Nothing);
                if multi {
                    self.nl(col);
                } else {
                    self.w(" ");
                }
            }
            self.w("else ");
            if !chain {
                self.exp(f, L_EXP, follow);
            }
            cur = f;
        }
    }

    /// `let` bindings one per line, then `in body`, all at one column.
    fn let_chain(&mut self, e: &Exp, follow: Follow) {
        let col = self.col();
        let mut cur = e;
        let mut first = true;
        loop {
            let next = match &cur.kind {
                ExpKind::Let {
                    sizes,
                    pat,
                    rhs,
                    body,
                } => {
                    if !first {
                        self.nl(col);
                    }
                    self.w("let ");
                    for s in sizes {
                        self.w(&format!("[{}] ", s.name));
                    }
                    self.pat(pat, PatLevel::Full, false);
                    self.w(" =");
                    self.body(rhs, col + 2);
                    body
                }
                ExpKind::LetFun {
                    name,
                    type_params,
                    params,
                    ret,
                    rhs,
                    body,
                } => {
                    if !first {
                        self.nl(col);
                    }
                    self.w("let ");
                    self.w(&name.name);
                    self.type_params(type_params);
                    // `let f #[a] x` does not start a function.
                    match params.split_first() {
                        Some((p @ Pat::Attr(..), rest)) if type_params.is_empty() => {
                            self.w(" (");
                            self.pat(p, PatLevel::Full, false);
                            self.w(")");
                            self.params(rest);
                        }
                        _ => self.params(params),
                    }
                    if let Some(t) = ret {
                        self.w(" : ");
                        self.ty(t, TyLevel::Full, false);
                    }
                    self.w(" =");
                    self.body(rhs, col + 2);
                    body
                }
                _ => break,
            };
            first = false;
            cur = next;
        }
        self.nl(col);
        self.w("in ");
        self.exp(cur, L_EXP, follow);
    }
}

/// Module expression contexts, loosest first: a declaration's body, the
/// inside of an ascription, an applied function, an atom, an argument
/// (where `import "f"` must be parenthesised).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MeLevel {
    Full,
    Ascribe,
    App,
    Atom,
    Arg,
}

/// Module type contexts: with arrows, a `with` chain, an atom.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MtLevel {
    Full,
    With,
    Atom,
}

fn lifted_kw(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "type",
        Liftedness::SizeLifted => "type~",
        Liftedness::Lifted => "type^",
    }
}

fn decl_doc(d: &Decl) -> &Option<String> {
    const NONE: &Option<String> = &None;
    match d {
        Decl::Val(v) => &v.doc,
        Decl::Type(t) => &t.doc,
        Decl::Module(m) => &m.doc,
        Decl::ModType(m) => &m.doc,
        Decl::Local(d, _) => decl_doc(d),
        Decl::Open(..) | Decl::Import(..) => NONE,
    }
}

/// Whether a type printed at full level would take in a following `->`
/// (a function type, or an existential whose body is read as a full type).
fn ty_takes_arrow(t: &TypeExp) -> bool {
    match t {
        TypeExp::Arrow(..) | TypeExp::Exists(..) => true,
        TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) => ty_takes_arrow(t),
        _ => false,
    }
}

/// A character inside a string or character literal (the caller handles
/// its own quote).
fn escape_char(out: &mut String, ch: char) {
    match ch {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c if c.is_control() => {
            let _ = write!(out, "\\U{:08x}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_base::FileId;

    /// A sink that marks type names and sizes, to show what the hooks see.
    struct Marked(String);

    impl TypeSink for Marked {
        fn text(&mut self, s: &str) {
            self.0.push_str(s);
        }
        fn type_name(&mut self, name: &QualName) {
            self.0.push_str(&format!("<{}>", name.full()));
        }
        fn size_exp(&mut self, e: &Exp) {
            self.0.push_str(&format!("{{{}}}", exp(e)));
        }
    }

    #[test]
    fn sinks_see_names_and_sizes_and_share_the_parentheses() {
        let src = "(m: i64) -> [m+1](M.t ([2]i32)) -> ?[k].{a: *[k]u8, b: #c (x -> y)}";
        let t = crate::parse_type(FileId(0), src).unwrap();
        let mut s = Marked(String::new());
        write_type_exp(&mut s, &t, TyLevel::Full, false);
        assert_eq!(
            s.0,
            "(m: <i64>) -> [{m + 1}]<M.t> ([{2}]<i32>) -> \
             ?[k].{a: *[{k}]<u8>, b: #c (<x> -> <y>)}"
        );
        assert_eq!(
            type_exp(&t),
            "(m: i64) -> [m + 1]M.t ([2]i32) -> ?[k].{a: *[k]u8, b: #c (x -> y)}"
        );
    }
}
