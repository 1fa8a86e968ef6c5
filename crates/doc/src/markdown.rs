//! Doc comments as HTML: Markdown (CommonMark, by `pulldown-cmark`) plus
//! Futhark's cross-links `` `name`@term ``, `` `t`@type ``, `` `S`@mtype ``.
//!
//! The Markdown parser sees the comment as written. A link is an inline
//! code span directly followed by text that starts with `@term`, `@type`
//! or `@mtype`: the code span becomes a link to the definition (when the
//! name resolves) and the namespace is dropped from the text. Raw HTML in
//! a comment is not passed through: it is shown as text, escaped, so that
//! a comment cannot break the page.

use pulldown_cmark::{html, CowStr, Event, Parser, Tag};

/// The namespaces a doc link may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Namespace {
    /// Values and modules.
    Term,
    /// Types.
    Type,
    /// Module types.
    ModType,
}

impl Namespace {
    /// The namespace as written after `@`.
    pub fn keyword(self) -> &'static str {
        match self {
            Namespace::Term => "term",
            Namespace::Type => "type",
            Namespace::ModType => "mtype",
        }
    }
}

/// Splits `@term rest` into the namespace and `rest`.
fn namespace_prefix(text: &str) -> Option<(Namespace, &str)> {
    let rest = text.strip_prefix('@')?;
    for ns in [Namespace::Term, Namespace::Type, Namespace::ModType] {
        if let Some(after) = rest.strip_prefix(ns.keyword()) {
            let word_goes_on = after
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if !word_goes_on {
                return Some((ns, after));
            }
        }
    }
    None
}

/// `url`, or `#` if it would run script (`javascript:`, `vbscript:`,
/// `data:` URLs).
fn safe_url(url: CowStr) -> CowStr {
    let scheme: String = url
        .trim_start()
        .chars()
        .take_while(|c| *c != ':')
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    let has_scheme = url.contains(':');
    if has_scheme && ["javascript", "vbscript", "data"].contains(&scheme.as_str()) {
        CowStr::from("#")
    } else {
        url
    }
}

/// Renders `doc` as HTML; `resolve` gives the escaped `href` of a linked
/// name in a namespace (`None`: the name is shown as code, unlinked).
pub fn render(doc: &str, resolve: &mut dyn FnMut(&str, Namespace) -> Option<String>) -> String {
    let events: Vec<Event> = Parser::new(doc)
        .map(|e| match e {
            // Raw HTML is shown as the text it is.
            Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
            // A link may not run script when followed.
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Link {
                link_type,
                dest_url: safe_url(dest_url),
                title,
                id,
            }),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Image {
                link_type,
                dest_url: safe_url(dest_url),
                title,
                id,
            }),
            e => e,
        })
        .collect();
    let mut out_events: Vec<Event> = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let (Event::Code(name), Some(Event::Text(next))) = (&events[i], events.get(i + 1)) {
            if let Some((ns, rest)) = namespace_prefix(next) {
                let code = format!("<code>{}</code>", crate::html::esc(name));
                let html = match resolve(name, ns) {
                    Some(h) => crate::html::link(&h, &code),
                    None => code,
                };
                out_events.push(Event::InlineHtml(CowStr::from(html)));
                if !rest.is_empty() {
                    out_events.push(Event::Text(CowStr::from(rest.to_string())));
                }
                i += 2;
                continue;
            }
        }
        out_events.push(events[i].clone());
        i += 1;
    }
    let mut out = String::new();
    html::push_html(&mut out, out_events.into_iter());
    out
}

/// The first paragraph of `doc` (up to its first blank line).
pub fn first_paragraph(doc: &str) -> String {
    doc.lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str, _: Namespace) -> Option<String> {
        None
    }

    #[test]
    fn markdown_and_raw_html() {
        assert_eq!(
            render("A *b* `c`.\n\n<script>x</script>", &mut none),
            "<p>A <em>b</em> <code>c</code>.</p>\n&lt;script&gt;x&lt;/script&gt;"
        );
    }

    #[test]
    fn links() {
        let mut r = |n: &str, ns: Namespace| match (n, ns) {
            ("f", Namespace::Term) => Some("#term:f".to_string()),
            _ => None,
        };
        assert_eq!(
            render("See `f`@term and `t`@type, `x`@terms.", &mut r),
            "<p>See <a href=\"#term:f\"><code>f</code></a> and <code>t</code>, <code>x</code>@terms.</p>\n"
        );
    }

    #[test]
    fn script_urls() {
        assert_eq!(
            render("[a](JavaScript:alert(1)) [b](https://x.org/)", &mut none),
            "<p><a href=\"#\">a</a> <a href=\"https://x.org/\">b</a></p>\n"
        );
    }

    #[test]
    fn paragraphs() {
        assert_eq!(first_paragraph("\nab\ncd\n\nef"), "ab\ncd");
    }
}
