//! HTML building blocks: escaping, anchors, links between pages, and type
//! expressions written as HTML with their names linked.
//!
//! Types are written by the project's own type printer
//! ([`parad_syntax::print::write_type_exp`]) through an HTML sink, so the
//! documentation shows the same text, with the same parentheses, as the
//! printer does; only the escaping and the links are added here.
//!
//! Every piece of user text (names, sizes, doc text) goes through [`esc`]
//! before it reaches a page; the functions here return HTML.

use parad_syntax::ast::{QualName, TypeExp, TypeParam};
use parad_syntax::print::{is_symbolic, write_type_exp, TypeSink};

/// How loosely a type may be written where it stands (the printer's).
pub use parad_syntax::print::TyLevel;

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

/// The type printer's sink for HTML: text is escaped, and a type name is
/// linked when `resolve` gives its (escaped) `href`.
struct HtmlTypes<'a> {
    resolve: &'a dyn Fn(&QualName) -> Option<String>,
    out: String,
}

impl TypeSink for HtmlTypes<'_> {
    fn text(&mut self, s: &str) {
        self.out.push_str(&esc(s));
    }

    fn type_name(&mut self, q: &QualName) {
        let text = esc(&q.full());
        match (self.resolve)(q) {
            Some(h) => self.out.push_str(&link(&h, &text)),
            None => self.out.push_str(&text),
        }
    }
}

/// A type expression as HTML at `lvl` (see
/// [`parad_syntax::print::write_type_exp`]: the same text as the project's
/// printer writes, escaped), its names linked where `resolve` gives the
/// (escaped) `href` of a name; `None` leaves it unlinked (built-in types,
/// type parameters, names without a documented definition).
pub fn type_html(
    t: &TypeExp,
    lvl: TyLevel,
    arrow_follows: bool,
    resolve: &dyn Fn(&QualName) -> Option<String>,
) -> String {
    let mut sink = HtmlTypes {
        resolve,
        out: String::new(),
    };
    write_type_exp(&mut sink, t, lvl, arrow_follows);
    sink.out
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
