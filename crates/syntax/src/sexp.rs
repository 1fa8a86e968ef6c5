//! A compact S-expression rendering of the AST, without spans or ids.
//! Tests compare parses against it, and it is handy in debug dumps.
//!
//! Application is `(f a b)`, infix operators `(+ a b)`, other forms are
//! tagged by a keyword: `(let p e body)`, `(index a i (: 1 _ _))`, ...

use crate::ast::*;
use std::fmt::Write;

pub fn exp(e: &Exp) -> String {
    let mut s = String::new();
    Printer(&mut s).exp(e);
    s
}

pub fn type_exp(t: &TypeExp) -> String {
    let mut s = String::new();
    Printer(&mut s).ty(t);
    s
}

pub fn pat(p: &Pat) -> String {
    let mut s = String::new();
    Printer(&mut s).pat(p);
    s
}

pub fn decl(d: &Decl) -> String {
    let mut s = String::new();
    Printer(&mut s).decl(d);
    s
}

/// One line per declaration.
pub fn program(p: &Program) -> String {
    p.decls.iter().map(|d| decl(d) + "\n").collect()
}

/// The doc comment of a declaration (not part of its S-expression).
pub fn doc(d: &Decl) -> Option<&str> {
    match d {
        Decl::Val(v) => v.doc.as_deref(),
        Decl::Type(t) => t.doc.as_deref(),
        Decl::Module(m) => m.doc.as_deref(),
        Decl::ModType(m) => m.doc.as_deref(),
        Decl::Local(d, _) => doc(d),
        Decl::Open(..) | Decl::Import(..) => None,
    }
}

/// The first difference between two programs as trees (the number of
/// declarations, a doc comment, a declaration's S-expression), described
/// for a person; `None` when they are the same tree. Spans, parentheses
/// and ordinary comments do not count. The printer's round trip and the
/// formatter's self-check both ask this of a program and its reparsed text.
pub fn first_difference(a: &Program, b: &Program) -> Option<String> {
    if a.decls.len() != b.decls.len() {
        return Some(format!(
            "{} declarations became {}",
            a.decls.len(),
            b.decls.len()
        ));
    }
    for (x, y) in a.decls.iter().zip(&b.decls) {
        if doc(x) != doc(y) {
            return Some(format!(
                "a doc comment changed: {:?} became {:?}",
                doc(x),
                doc(y)
            ));
        }
        let (sx, sy) = (decl(x), decl(y));
        if sx != sy {
            return Some(format!("a declaration changed:\n{sx}\nbecame\n{sy}"));
        }
    }
    None
}

struct Printer<'a>(&'a mut String);

impl Printer<'_> {
    fn w(&mut self, s: &str) {
        self.0.push_str(s);
    }

    fn list<T>(&mut self, open: &str, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        self.w(open);
        for (i, x) in items.iter().enumerate() {
            if i > 0 || !open.ends_with('(') {
                self.w(" ");
            }
            f(self, x);
        }
        self.w(")");
    }

    fn lit(&mut self, l: &Lit) {
        match l {
            Lit::Int { value, suffix } => {
                let _ = write!(self.0, "{value}");
                match suffix {
                    Some(IntSuffix::Int(t)) => self.w(t.name()),
                    Some(IntSuffix::Float(t)) => self.w(t.name()),
                    None => {}
                }
            }
            Lit::Float { value, suffix } => {
                let _ = write!(self.0, "{value:?}");
                if let Some(t) = suffix {
                    self.w(t.name());
                }
            }
            Lit::Bool(b) => {
                let _ = write!(self.0, "{b}");
            }
            Lit::Char(c) => {
                let _ = write!(self.0, "(char {c})");
            }
        }
    }

    fn opt_exp(&mut self, e: &Option<Exp>) {
        match e {
            Some(e) => self.exp(e),
            None => self.w("_"),
        }
    }

    fn dims(&mut self, idx: &[DimIndex]) {
        for (i, d) in idx.iter().enumerate() {
            if i > 0 {
                self.w(" ");
            }
            match d {
                DimIndex::Fix(e) => self.exp(e),
                DimIndex::Slice { start, end, stride } => {
                    self.w("(: ");
                    self.opt_exp(start);
                    self.w(" ");
                    self.opt_exp(end);
                    self.w(" ");
                    self.opt_exp(stride);
                    self.w(")");
                }
            }
        }
    }

    fn exp(&mut self, e: &Exp) {
        match &e.kind {
            ExpKind::Lit(l) => self.lit(l),
            ExpKind::StringLit(s) => {
                let _ = write!(self.0, "{s:?}");
            }
            ExpKind::Var(q) => self.w(&q.full()),
            ExpKind::Hole => self.w("???"),
            ExpKind::Tuple(es) => self.list("(tuple", es, |p, e| p.exp(e)),
            ExpKind::Record(fs) => self.list("(record", fs, |p, f| match f {
                FieldExp::Explicit(n, e) => {
                    p.w(&format!("({} ", n.name));
                    p.exp(e);
                    p.w(")");
                }
                FieldExp::Implicit(n) => p.w(&n.name),
            }),
            ExpKind::ArrayLit(es) => self.list("(array", es, |p, e| p.exp(e)),
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => {
                self.w(match kind {
                    RangeEnd::UpToExclusive => "(..< ",
                    RangeEnd::DownToExclusive => "(..> ",
                    RangeEnd::Inclusive => "(... ",
                });
                self.exp(start);
                if let Some(s) = second {
                    self.w(" ");
                    self.exp(s);
                }
                self.w(" ");
                self.exp(end);
                self.w(")");
            }
            ExpKind::Project(e, f) => {
                self.w("(. ");
                self.exp(e);
                self.w(&format!(" {})", f.name));
            }
            ExpKind::Index(a, idx) => {
                self.w("(index ");
                self.exp(a);
                self.w(" ");
                self.dims(idx);
                self.w(")");
            }
            ExpKind::Update(a, idx, v) => {
                self.w("(update ");
                self.exp(a);
                self.w(" (");
                self.dims(idx);
                self.w(") ");
                self.exp(v);
                self.w(")");
            }
            ExpKind::RecordUpdate(r, path, v) => {
                self.w("(with ");
                self.exp(r);
                let names: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
                self.w(&format!(" {} ", names.join(".")));
                self.exp(v);
                self.w(")");
            }
            ExpKind::Apply(f, args) => {
                self.w("(");
                self.exp(f);
                for a in args {
                    self.w(" ");
                    self.exp(a);
                }
                self.w(")");
            }
            ExpKind::BinOp(op, a, b) => {
                self.w(&format!("({} ", op.full()));
                self.exp(a);
                self.w(" ");
                self.exp(b);
                self.w(")");
            }
            ExpKind::Negate(e) => self.tagged("neg", &[e]),
            ExpKind::Not(e) => self.tagged("not", &[e]),
            ExpKind::If(c, t, f) => self.tagged("if", &[c, t, f]),
            ExpKind::Let {
                sizes,
                pat,
                rhs,
                body,
            } => {
                self.w("(let ");
                for s in sizes {
                    self.w(&format!("[{}] ", s.name));
                }
                self.pat(pat);
                self.w(" ");
                self.exp(rhs);
                self.w(" ");
                self.exp(body);
                self.w(")");
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                ret,
                rhs,
                body,
            } => {
                self.w(&format!("(letfun {}", name.name));
                self.type_params(type_params);
                self.list(" (", params, |p, x| p.pat(x));
                if let Some(t) = ret {
                    self.w(" : ");
                    self.ty(t);
                }
                self.w(" ");
                self.exp(rhs);
                self.w(" ");
                self.exp(body);
                self.w(")");
            }
            ExpKind::Lambda { params, ret, body } => {
                self.list("(\\ (", params, |p, x| p.pat(x));
                if let Some(t) = ret {
                    self.w(" : ");
                    self.ty(t);
                }
                self.w(" ");
                self.exp(body);
                self.w(")");
            }
            ExpKind::OpSection(op) => self.w(&format!("(section {})", op.full())),
            ExpKind::OpSectionLeft(op, e) => {
                self.w("(section-left ");
                self.exp(e);
                self.w(&format!(" {})", op.full()));
            }
            ExpKind::OpSectionRight(op, e) => {
                self.w(&format!("(section-right {} ", op.full()));
                self.exp(e);
                self.w(")");
            }
            ExpKind::ProjectSection(steps) => {
                self.w("(section ");
                for s in steps {
                    match s {
                        SectionStep::Field(f) => self.w(&format!(".{}", f.name)),
                        SectionStep::Index(idx) => {
                            self.w("[");
                            self.dims(idx);
                            self.w("]");
                        }
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
                self.w("(loop ");
                for s in sizes {
                    self.w(&format!("[{}] ", s.name));
                }
                self.pat(pat);
                self.w(" ");
                match init {
                    Some(i) => self.exp(i),
                    None => self.w("_"),
                }
                match form {
                    LoopForm::For(i, n) => {
                        self.w(&format!(" (for {} ", i.name));
                        self.exp(n);
                    }
                    LoopForm::ForIn(p, xs) => {
                        self.w(" (for-in ");
                        self.pat(p);
                        self.w(" ");
                        self.exp(xs);
                    }
                    LoopForm::While(c) => {
                        self.w(" (while ");
                        self.exp(c);
                    }
                }
                self.w(") ");
                self.exp(body);
                self.w(")");
            }
            ExpKind::Ascribe(e, t) => {
                self.w("(: ");
                self.exp(e);
                self.w(" ");
                self.ty(t);
                self.w(")");
            }
            ExpKind::Coerce(e, t) => {
                self.w("(:> ");
                self.exp(e);
                self.w(" ");
                self.ty(t);
                self.w(")");
            }
            ExpKind::Assert(c, e) => self.tagged("assert", &[c, e]),
            ExpKind::Match(e, cases) => {
                self.w("(match ");
                self.exp(e);
                for (p, b) in cases {
                    self.w(" (case ");
                    self.pat(p);
                    self.w(" ");
                    self.exp(b);
                    self.w(")");
                }
                self.w(")");
            }
            ExpKind::Constr(c, args) => {
                if args.is_empty() {
                    self.w(&format!("#{}", c.name));
                } else {
                    self.list(&format!("(#{}", c.name), args, |p, a| p.exp(a));
                }
            }
            ExpKind::Attr(a, e) => {
                self.w("(attr ");
                self.attr(a);
                self.w(" ");
                self.exp(e);
                self.w(")");
            }
            ExpKind::QualParens(m, e) => {
                self.w(&format!("(open {} ", m.full()));
                self.exp(e);
                self.w(")");
            }
        }
    }

    fn tagged(&mut self, tag: &str, es: &[&Exp]) {
        self.w("(");
        self.w(tag);
        for e in es {
            self.w(" ");
            self.exp(e);
        }
        self.w(")");
    }

    fn attr(&mut self, a: &Attr) {
        match a {
            Attr::Atom(s, _) => self.w(s),
            Attr::Int(i, _) => self.w(&i.to_string()),
            Attr::Comp(s, args, _) => self.list(&format!("({s}"), args, |p, a| p.attr(a)),
        }
    }

    fn type_params(&mut self, ps: &[TypeParam]) {
        for tp in ps {
            self.w(&format!(" {}", tp.source()));
        }
    }

    fn size(&mut self, d: &SizeExp) {
        match d {
            SizeExp::Any(_) => self.w("[]"),
            SizeExp::Exp(e) => {
                self.w("[");
                self.exp(e);
                self.w("]");
            }
        }
    }

    fn ty(&mut self, t: &TypeExp) {
        match t {
            TypeExp::Named { name, args, .. } => {
                if args.is_empty() {
                    self.w(&name.full());
                } else {
                    self.list(&format!("({}", name.full()), args, |p, a| match a {
                        TypeArg::Size(d) => p.size(d),
                        TypeArg::Type(t) => p.ty(t),
                    });
                }
            }
            TypeExp::Tuple(ts, _) => self.list("(tuple", ts, |p, t| p.ty(t)),
            TypeExp::Record(fs, _) => self.list("(record", fs, |p, (n, t)| {
                p.w(&format!("({} ", n.name));
                p.ty(t);
                p.w(")");
            }),
            TypeExp::Array(d, t, _) => {
                self.w("(");
                self.size(d);
                self.w(" ");
                self.ty(t);
                self.w(")");
            }
            TypeExp::Unique(t, _) => {
                self.w("(* ");
                self.ty(t);
                self.w(")");
            }
            TypeExp::Arrow(n, a, b, _) => {
                self.w("(-> ");
                match n {
                    Some(n) => {
                        self.w(&format!("({}: ", n.name));
                        self.ty(a);
                        self.w(")");
                    }
                    None => self.ty(a),
                }
                self.w(" ");
                self.ty(b);
                self.w(")");
            }
            TypeExp::Sum(cs, _) => self.list("(sum", cs, |p, (c, ts)| {
                if ts.is_empty() {
                    p.w(&format!("#{}", c.name));
                } else {
                    p.list(&format!("(#{}", c.name), ts, |p, t| p.ty(t));
                }
            }),
            TypeExp::Exists(ns, t, _) => {
                self.w("(?");
                for n in ns {
                    self.w(&format!(" [{}]", n.name));
                }
                self.w(" ");
                self.ty(t);
                self.w(")");
            }
        }
    }

    fn pat(&mut self, p: &Pat) {
        match p {
            Pat::Id(i) => self.w(&i.name),
            Pat::Wildcard(_) => self.w("_"),
            Pat::Tuple(ps, _) => self.list("(tuple", ps, |p, x| p.pat(x)),
            Pat::Record(fs, _) => self.list("(record", fs, |p, (n, sub)| match sub {
                Some(sub) => {
                    p.w(&format!("({} ", n.name));
                    p.pat(sub);
                    p.w(")");
                }
                None => p.w(&n.name),
            }),
            Pat::Ascribe(p, t, _) => {
                self.w("(: ");
                self.pat(p);
                self.w(" ");
                self.ty(t);
                self.w(")");
            }
            Pat::Lit(l, _) => self.lit(l),
            Pat::NegLit(l, _) => {
                self.w("-");
                self.lit(l);
            }
            Pat::Constr(c, ps, _) => {
                if ps.is_empty() {
                    self.w(&format!("#{}", c.name));
                } else {
                    self.list(&format!("(#{}", c.name), ps, |p, x| p.pat(x));
                }
            }
            Pat::Attr(a, p, _) => {
                self.w("(attr ");
                self.attr(a);
                self.w(" ");
                self.pat(p);
                self.w(")");
            }
        }
    }

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Val(v) => {
                let kw = match v.kind {
                    ValKind::Def => "def",
                    ValKind::Let => "let",
                    ValKind::Entry => "entry",
                };
                self.w(&format!("({kw} {}", v.name.name));
                self.type_params(&v.type_params);
                self.list(" (", &v.params, |p, x| p.pat(x));
                if let Some(t) = &v.ret {
                    self.w(" : ");
                    self.ty(t);
                }
                self.w(" ");
                self.exp(&v.body);
                self.w(")");
            }
            Decl::Type(t) => {
                let kw = match t.liftedness {
                    Liftedness::Unlifted => "type",
                    Liftedness::SizeLifted => "type~",
                    Liftedness::Lifted => "type^",
                };
                self.w(&format!("({kw} {}", t.name.name));
                self.type_params(&t.params);
                self.w(" ");
                self.ty(&t.def);
                self.w(")");
            }
            Decl::Module(m) => {
                self.w(&format!("(module {}", m.name.name));
                for p in &m.params {
                    self.w(&format!(" ({}: ", p.name.name));
                    self.mod_type(&p.sig);
                    self.w(")");
                }
                if let Some(s) = &m.sig {
                    self.w(" : ");
                    self.mod_type(s);
                }
                self.w(" ");
                self.mod_exp(&m.body);
                self.w(")");
            }
            Decl::ModType(m) => {
                self.w(&format!("(module-type {} ", m.name.name));
                self.mod_type(&m.def);
                self.w(")");
            }
            Decl::Open(m, _) => {
                self.w("(open ");
                self.mod_exp(m);
                self.w(")");
            }
            Decl::Import(s, _) => self.w(&format!("(import {s:?})")),
            Decl::Local(d, _) => {
                self.w("(local ");
                self.decl(d);
                self.w(")");
            }
        }
    }

    fn mod_exp(&mut self, m: &ModExp) {
        match m {
            ModExp::Var(q) => self.w(&q.full()),
            ModExp::Struct(ds, _) => self.list("(struct", ds, |p, d| p.decl(d)),
            ModExp::Import(s, _) => self.w(&format!("(import {s:?})")),
            ModExp::Apply(f, a, _) => {
                self.w("(");
                self.mod_exp(f);
                self.w(" ");
                self.mod_exp(a);
                self.w(")");
            }
            ModExp::Ascribe(m, t, _) => {
                self.w("(: ");
                self.mod_exp(m);
                self.w(" ");
                self.mod_type(t);
                self.w(")");
            }
            ModExp::Lambda(p, sig, body, _) => {
                self.w(&format!("(\\ ({}: ", p.name.name));
                self.mod_type(&p.sig);
                self.w(")");
                if let Some(s) = sig {
                    self.w(" : ");
                    self.mod_type(s);
                }
                self.w(" ");
                self.mod_exp(body);
                self.w(")");
            }
        }
    }

    fn mod_type(&mut self, t: &ModTypeExp) {
        match t {
            ModTypeExp::Var(q) => self.w(&q.full()),
            ModTypeExp::Specs(specs, _) => self.list("(sig", specs, |p, s| p.spec(s)),
            ModTypeExp::With(t, name, params, te, _) => {
                self.w("(with ");
                self.mod_type(t);
                self.w(&format!(" {}", name.full()));
                self.type_params(params);
                self.w(" ");
                self.ty(te);
                self.w(")");
            }
            ModTypeExp::Arrow(n, a, b, _) => {
                self.w("(-> ");
                if let Some(n) = n {
                    self.w(&format!("{}: ", n.name));
                }
                self.mod_type(a);
                self.w(" ");
                self.mod_type(b);
                self.w(")");
            }
        }
    }

    fn spec(&mut self, s: &Spec) {
        match s {
            Spec::Val {
                name,
                type_params,
                ty,
                ..
            } => {
                self.w(&format!("(val {}", name.name));
                self.type_params(type_params);
                self.w(" ");
                self.ty(ty);
                self.w(")");
            }
            Spec::Type {
                name,
                liftedness,
                params,
                def,
                ..
            } => {
                let kw = match liftedness {
                    Liftedness::Unlifted => "type",
                    Liftedness::SizeLifted => "type~",
                    Liftedness::Lifted => "type^",
                };
                self.w(&format!("({kw} {}", name.name));
                self.type_params(params);
                if let Some(t) = def {
                    self.w(" ");
                    self.ty(t);
                }
                self.w(")");
            }
            Spec::Module { name, sig, .. } => {
                self.w(&format!("(module {} ", name.name));
                self.mod_type(sig);
                self.w(")");
            }
            Spec::Include(t, _) => {
                self.w("(include ");
                self.mod_type(t);
                self.w(")");
            }
        }
    }
}
