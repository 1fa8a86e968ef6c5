//! HTML building blocks: escaping, anchors, links between pages, and type
//! expressions written as HTML with their names linked.
//!
//! Every piece of user text (names, sizes, doc text) goes through [`esc`]
//! before it reaches a page; the functions here return HTML.

use parad_syntax::ast::{QualName, SizeExp, TypeArg, TypeExp, TypeParam};

/// `text` escaped for HTML text and double- or single-quoted attributes.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A name as it may appear in an element id and a URL fragment: ASCII
/// letters, digits and operator characters that need no escaping in
/// either are kept, every other byte is written `~XX` (hexadecimal).
pub fn anchor_part(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"_'.+-*/=!|&^:@$".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("~{b:02x}"));
        }
    }
    out
}

/// The `href` (escaped, ready for an attribute) from the page `from` to
/// the page `to`, at `anchor` if given. Pages are paths relative to the
/// output folder, `/`-separated.
pub fn href(from: &str, to: &str, anchor: Option<&str>) -> String {
    let mut s = if from == to && anchor.is_some() {
        String::new()
    } else {
        relative(from, to)
    };
    if let Some(a) = anchor {
        s.push('#');
        s.push_str(a);
    }
    esc(&s)
}

/// The path of page `to` relative to the folder of page `from`.
pub fn relative(from: &str, to: &str) -> String {
    let from_dirs: Vec<&str> = match from.rsplit_once('/') {
        Some((d, _)) => d.split('/').collect(),
        None => vec![],
    };
    let to_parts: Vec<&str> = to.split('/').collect();
    let (to_dirs, to_file) = to_parts.split_at(to_parts.len() - 1);
    let common = from_dirs
        .iter()
        .zip(to_dirs)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from_dirs.len() - common];
    parts.extend(&to_dirs[common..]);
    parts.extend(to_file);
    parts.join("/")
}

/// `<a href="HREF">TEXT</a>` where `href` is already escaped.
pub fn link(href: &str, text_html: &str) -> String {
    format!("<a href=\"{href}\">{text_html}</a>")
}

/// A keyword.
pub fn kw(k: &str) -> String {
    format!("<span class=\"kw\">{k}</span>")
}

/// Whether a name is an operator (written in parentheses as a binder).
pub fn is_symbolic(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| !(c.is_alphanumeric() || c == '_'))
}

/// A name as a binder: `f`, or `(+)` for an operator.
pub fn binder(name: &str) -> String {
    if is_symbolic(name) {
        format!("({})", esc(name))
    } else {
        esc(name)
    }
}

/// Type parameters as written, each preceded by a space.
pub fn type_params(ps: &[TypeParam]) -> String {
    ps.iter()
        .map(|p| format!(" {}", esc(&p.source())))
        .collect()
}

/// How loosely a type may be written where it appears (as in the
/// project's printer): a full type, a term (no unparenthesised arrow), a
/// constructor payload, an atom.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TyLevel {
    /// Anywhere a type may stand.
    Full,
    /// No arrow at the top without parentheses.
    Term,
    /// A constructor's payload.
    Payload,
    /// An argument of a type constructor.
    Atom,
}

/// Writes type expressions as HTML; `resolve` gives the (escaped) `href`
/// of a type name, or `None` to leave it unlinked (built-in types, type
/// parameters, names without a documented definition).
pub struct TypePrinter<'a> {
    /// Gives the `href` of a type name, if linked.
    pub resolve: &'a dyn Fn(&QualName) -> Option<String>,
    /// The HTML written so far.
    pub out: String,
}

impl TypePrinter<'_> {
    fn w(&mut self, s: &str) {
        self.out.push_str(s);
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

    /// A (possibly qualified) type name, linked if it resolves.
    pub fn name(&mut self, q: &QualName) {
        let text = esc(&q.full());
        match (self.resolve)(q) {
            Some(h) => {
                let l = link(&h, &text);
                self.w(&l)
            }
            None => self.w(&text),
        }
    }

    /// A size in brackets: `[]`, `[n]`, `[n+1]`.
    pub fn size(&mut self, d: &SizeExp) {
        match d {
            SizeExp::Any(_) => self.w("[]"),
            SizeExp::Exp(e) => {
                let s = esc(&parad_syntax::print::exp(e));
                self.w(&format!("[{s}]"));
            }
        }
    }

    /// A type at level `lvl`; `arrow_follows` when an arrow comes after
    /// it in the same type (an existential must then be parenthesised).
    pub fn ty(&mut self, t: &TypeExp, lvl: TyLevel, arrow_follows: bool) {
        match t {
            TypeExp::Named { name, args, .. } => {
                self.parens(!args.is_empty() && lvl > TyLevel::Term, |p| {
                    p.name(name);
                    for a in args {
                        p.w(" ");
                        match a {
                            TypeArg::Size(d) => p.size(d),
                            TypeArg::Type(t) => p.ty(t, TyLevel::Atom, false),
                        }
                    }
                });
            }
            TypeExp::Tuple(ts, _) => {
                self.w("(");
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.ty(t, TyLevel::Full, false);
                }
                self.w(")");
            }
            TypeExp::Record(fs, _) => {
                self.w("{");
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.w(&format!("{}: ", esc(&n.name)));
                    self.ty(t, TyLevel::Full, false);
                }
                self.w("}");
            }
            TypeExp::Array(..) | TypeExp::Unique(..) => {
                let paren = lvl == TyLevel::Atom;
                let (inner, arrow) = match lvl {
                    TyLevel::Payload => (TyLevel::Payload, arrow_follows),
                    TyLevel::Atom => (TyLevel::Term, false),
                    _ => (TyLevel::Term, arrow_follows),
                };
                self.parens(paren, |p| match t {
                    TypeExp::Array(d, elem, _) => {
                        p.size(d);
                        p.ty(elem, inner, arrow);
                    }
                    TypeExp::Unique(elem, _) => {
                        p.w("*");
                        let glued = matches!(**elem, TypeExp::Unique(..));
                        p.parens(glued, |p| p.ty(elem, inner, arrow && !glued));
                    }
                    _ => {}
                });
            }
            TypeExp::Arrow(n, a, b, _) => {
                self.parens(lvl > TyLevel::Full, |p| {
                    match n {
                        Some(n) => {
                            p.w(&format!("({}: ", esc(&n.name)));
                            p.ty(a, TyLevel::Full, false);
                            p.w(")");
                        }
                        None => p.ty(a, TyLevel::Term, true),
                    }
                    p.w(" -&gt; ");
                    p.ty(b, TyLevel::Full, arrow_follows && lvl == TyLevel::Full);
                });
            }
            TypeExp::Sum(cs, _) => {
                self.parens(lvl > TyLevel::Term, |p| {
                    for (i, (c, ts)) in cs.iter().enumerate() {
                        if i > 0 {
                            p.w(" | ");
                        }
                        p.w(&format!("#{}", esc(&c.name)));
                        for t in ts {
                            p.w(" ");
                            p.ty(t, TyLevel::Payload, false);
                        }
                    }
                });
            }
            TypeExp::Exists(ns, body, _) => {
                self.parens(lvl > TyLevel::Term || arrow_follows, |p| {
                    p.w("?");
                    for n in ns {
                        p.w(&format!("[{}]", esc(&n.name)));
                    }
                    p.w(".");
                    p.ty(body, TyLevel::Full, false);
                });
            }
        }
    }
}

/// A type expression as HTML at `lvl`, names resolved by `resolve`.
pub fn type_html(
    t: &TypeExp,
    lvl: TyLevel,
    arrow_follows: bool,
    resolve: &dyn Fn(&QualName) -> Option<String>,
) -> String {
    let mut p = TypePrinter {
        resolve,
        out: String::new(),
    };
    p.ty(t, lvl, arrow_follows);
    p.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(relative("a.html", "b.html"), "b.html");
        assert_eq!(relative("x/a.html", "b.html"), "../b.html");
        assert_eq!(relative("x/a.html", "x/y/b.html"), "y/b.html");
        assert_eq!(relative("x/y/a.html", "x/z/b.html"), "../z/b.html");
        assert_eq!(href("a.html", "a.html", Some("term:f")), "#term:f");
        assert_eq!(href("a.html", "a.html", None), "a.html");
    }

    #[test]
    fn escaping_and_anchors() {
        assert_eq!(
            esc("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(anchor_part("+<#x y"), "+~3c~23x~20y");
        assert_eq!(binder("+++"), "(+++)");
        assert_eq!(binder("<|"), "(&lt;|)");
    }
}
