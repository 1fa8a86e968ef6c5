//! The package manifest `futhark.pkg`: parsing (with 1-based line:column
//! errors), editing and printing.
//!
//! The format: an optional `package PATH` line, then an optional block
//! `require { PATH VERSION [#COMMIT] ... }`, with `--` line comments
//! anywhere. A requirement's path and version are on one line; the version
//! is a semantic version (see [`crate::version`]); the optional commit
//! hash (hexadecimal) pins what that version looked like when it was
//! added.
//!
//! Comments are kept: each comment is attached to the part of the
//! manifest it stands next to (before the `package` line, at the end of
//! the `package` line, before `require`, a line of its own in the require
//! block, at the end of a requirement's line, or after the block).
//! [`Manifest::print`] writes the normal form (what `futhark pkg` writes
//! too): the comments before the package line, `package PATH` and a blank
//! line, the comments before `require`, `require {`, one requirement or
//! comment per line indented by two spaces (a requirement's own comment
//! stays at the end of its line), `}`, and the comments after the block.
//! Blank lines and other spacing are not kept; the text of each comment
//! is (less trailing spaces). Printing and parsing again gives the same
//! manifest, and printing a printed manifest changes nothing.

use crate::version::{check_path, parse_version, Version};

/// One requirement of the `require` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Required {
    /// The package path (`github.com/owner/repo`, or `...@N` for major
    /// version `N` ≥ 2).
    pub path: String,
    /// The minimum version.
    pub version: Version,
    /// The commit the version had when it was added (hexadecimal).
    pub hash: Option<String>,
    /// The comment at the end of the requirement's line (the text after
    /// `--`).
    pub comment: Option<String>,
    /// The line of the requirement (1-based; 0 for one that was added).
    pub line: usize,
}

/// A line of the `require` block.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A comment on a line of its own (the text after `--`).
    Comment(String),
    /// A requirement.
    Require(Required),
}

/// A parsed `futhark.pkg`, comments included.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    /// The package path of the package this manifest defines (whose files
    /// are in `lib/PATH/`).
    pub package: Option<String>,
    /// Comments before the `package` line.
    pub package_comments: Vec<String>,
    /// The comment at the end of the `package` line.
    pub package_comment: Option<String>,
    /// Comments before `require`.
    pub require_comments: Vec<String>,
    /// The lines of the `require` block.
    pub items: Vec<Item>,
    /// Comments after the `require` block.
    pub end_comments: Vec<String>,
}

/// An error at `line:col` (1-based) of a manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct ManifestError {
    /// The line (1-based).
    pub line: usize,
    /// The column (1-based, in characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl Manifest {
    /// A manifest of a package with the given path (if any) and no
    /// requirements.
    pub fn new(package: Option<String>) -> Manifest {
        Manifest {
            package,
            ..Manifest::default()
        }
    }

    /// The requirements, in the order of the file.
    pub fn required(&self) -> impl Iterator<Item = &Required> {
        self.items.iter().filter_map(|i| match i {
            Item::Require(r) => Some(r),
            Item::Comment(_) => None,
        })
    }

    /// The requirement of a package, if any.
    pub fn find(&self, path: &str) -> Option<&Required> {
        self.required().find(|r| r.path == path)
    }

    /// Requires `new`: replaces the requirement of the same package (where
    /// it was, keeping its comment) or adds it at the end of the block.
    /// Returns the requirement it replaced.
    pub fn add(&mut self, mut new: Required) -> Option<Required> {
        for item in &mut self.items {
            if let Item::Require(r) = item {
                if r.path == new.path {
                    if new.comment.is_none() {
                        new.comment = r.comment.clone();
                    }
                    return Some(std::mem::replace(r, new));
                }
            }
        }
        self.items.push(Item::Require(new));
        None
    }

    /// Removes the requirement of a package, returning it (`None` if
    /// there was none).
    pub fn remove(&mut self, path: &str) -> Option<Required> {
        let k = self
            .items
            .iter()
            .position(|i| matches!(i, Item::Require(r) if r.path == path))?;
        match self.items.remove(k) {
            Item::Require(r) => Some(r),
            Item::Comment(_) => None,
        }
    }

    /// The manifest in normal form (see the module documentation).
    pub fn print(&self) -> String {
        let mut out = String::new();
        let comment = |out: &mut String, indent: &str, c: &str| {
            out.push_str(indent);
            out.push_str("--");
            out.push_str(c);
            out.push('\n');
        };
        for c in &self.package_comments {
            comment(&mut out, "", c);
        }
        if let Some(p) = &self.package {
            out.push_str("package ");
            out.push_str(p);
            if let Some(c) = &self.package_comment {
                out.push_str(" --");
                out.push_str(c);
            }
            out.push_str("\n\n");
        }
        for c in &self.require_comments {
            comment(&mut out, "", c);
        }
        out.push_str("require {\n");
        for item in &self.items {
            match item {
                Item::Comment(c) => comment(&mut out, "  ", c),
                Item::Require(r) => {
                    out.push_str("  ");
                    out.push_str(&r.path);
                    out.push(' ');
                    out.push_str(&r.version.to_string());
                    if let Some(h) = &r.hash {
                        out.push_str(" #");
                        out.push_str(h);
                    }
                    if let Some(c) = &r.comment {
                        out.push_str(" --");
                        out.push_str(c);
                    }
                    out.push('\n');
                }
            }
        }
        out.push_str("}\n");
        for c in &self.end_comments {
            comment(&mut out, "", c);
        }
        out
    }
}

/// A word of the manifest with its 1-based position.
struct Token<'a> {
    text: &'a str,
    line: usize,
    col: usize,
}

/// A `--` comment: its text after `--` (less trailing white space), its
/// position, and whether a word precedes it on its line.
struct Comment {
    text: String,
    line: usize,
    col: usize,
    trailing: bool,
}

/// Splits the manifest into words and braces, and comments. A comment
/// starts with `--` at the start of a word.
fn lex(text: &str) -> (Vec<Token<'_>>, Vec<Comment>) {
    let mut toks = vec![];
    let mut comments = vec![];
    for (i, line) in text.lines().enumerate() {
        let col_of = |byte: usize| line[..byte].chars().count() + 1;
        // Byte ranges of the words and braces of the line.
        let mut spans: Vec<(usize, usize)> = vec![];
        let mut start: Option<usize> = None;
        for (k, c) in line.char_indices() {
            let brace = c == '{' || c == '}';
            if c.is_whitespace() || brace {
                if let Some(s) = start.take() {
                    spans.push((s, k));
                }
                if brace {
                    spans.push((k, k + 1));
                }
            } else if start.is_none() {
                if line[k..].starts_with("--") {
                    comments.push(Comment {
                        text: line[k + 2..].trim_end().to_string(),
                        line: i + 1,
                        col: col_of(k),
                        trailing: !spans.is_empty(),
                    });
                    break;
                }
                start = Some(k);
            }
        }
        if let Some(s) = start {
            spans.push((s, line.len()));
        }
        toks.extend(spans.into_iter().map(|(from, to)| Token {
            text: &line[from..to],
            line: i + 1,
            col: col_of(from),
        }));
    }
    (toks, comments)
}

/// Parses the text of a `futhark.pkg`.
pub fn parse_manifest(text: &str) -> Result<Manifest, ManifestError> {
    let (toks, comments) = lex(text);
    let end = |what: &str| {
        let (line, col) = match text.lines().count() {
            0 => (1, 1),
            n => (n, text.lines().last().map_or(0, |l| l.chars().count()) + 1),
        };
        ManifestError {
            line,
            col,
            message: format!("expected {what}, found the end of the file"),
        }
    };
    let err = |t: &Token, message: String| ManifestError {
        line: t.line,
        col: t.col,
        message,
    };
    let mut m = Manifest::default();
    // Positions of the parts, for placing the comments.
    let mut package_at: Option<(usize, usize)> = None;
    let mut package_path_line = 0;
    let mut require_at: Option<(usize, usize)> = None;
    let mut close_at: Option<(usize, usize)> = None;
    // Position of the first word of each requirement, and its line.
    let mut req_pos: Vec<(usize, usize)> = vec![];
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.text {
            "package" if m.package.is_none() && require_at.is_none() => {
                let p = toks.get(i + 1).ok_or_else(|| end("a package path"))?;
                check_path(p.text).map_err(|e| err(p, e))?;
                m.package = Some(p.text.to_string());
                package_at = Some((t.line, t.col));
                package_path_line = p.line;
                i += 2;
            }
            "package" => {
                return Err(err(
                    t,
                    "'package' must come once, before 'require'".to_string(),
                ))
            }
            "require" if require_at.is_none() => {
                require_at = Some((t.line, t.col));
                let open = toks.get(i + 1).ok_or_else(|| end("'{' after 'require'"))?;
                if open.text != "{" {
                    return Err(err(
                        open,
                        format!("expected '{{' after 'require', found '{}'", open.text),
                    ));
                }
                i += 2;
                loop {
                    let p = toks.get(i).ok_or_else(|| end("'}' closing 'require'"))?;
                    if p.text == "}" {
                        close_at = Some((p.line, p.col));
                        i += 1;
                        break;
                    }
                    check_path(p.text).map_err(|e| err(p, e))?;
                    if let Some(prev) = m.find(p.text) {
                        return Err(err(
                            p,
                            format!(
                                "package '{}' is required twice (also on line {})",
                                p.text, prev.line
                            ),
                        ));
                    }
                    let v = toks
                        .get(i + 1)
                        .ok_or_else(|| end(&format!("a version of '{}'", p.text)))?;
                    let version = if v.line != p.line || v.text == "}" {
                        None
                    } else {
                        parse_version(v.text).ok()
                    };
                    let Some(version) = version else {
                        return Err(err(
                            v,
                            format!(
                                "expected a version such as 1.2.3 after '{}', found '{}'",
                                p.text, v.text
                            ),
                        ));
                    };
                    i += 2;
                    let mut hash = None;
                    if let Some(h) = toks
                        .get(i)
                        .filter(|h| h.text.starts_with('#') && h.line == p.line)
                    {
                        let digits = &h.text[1..];
                        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
                            return Err(err(
                                h,
                                format!(
                                    "expected a commit hash of hexadecimal digits after '#', found '{}'",
                                    h.text
                                ),
                            ));
                        }
                        hash = Some(digits.to_string());
                        i += 1;
                    }
                    req_pos.push((p.line, p.col));
                    m.items.push(Item::Require(Required {
                        path: p.text.to_string(),
                        version,
                        hash,
                        comment: None,
                        line: p.line,
                    }));
                }
            }
            "require" => {
                return Err(err(t, "'require' must come once".to_string()));
            }
            other => {
                return Err(err(
                    t,
                    format!("expected 'package' or 'require', found '{other}'"),
                ))
            }
        }
    }
    // Place the comments.
    let mut inside: Vec<(usize, Item)> = vec![]; // (index of the next requirement, comment)
    for c in comments {
        let at = (c.line, c.col);
        if require_at.is_none_or(|r| at < r) {
            if package_at.is_some_and(|p| at < p) {
                m.package_comments.push(c.text);
            } else if package_at.is_some() && c.trailing && c.line == package_path_line {
                m.package_comment = Some(c.text);
            } else {
                m.require_comments.push(c.text);
            }
        } else if close_at.is_some_and(|e| at > e) {
            m.end_comments.push(c.text);
        } else {
            let next = req_pos
                .iter()
                .position(|&p| p > at)
                .unwrap_or(req_pos.len());
            let on_line_of = next.checked_sub(1).filter(|&k| req_pos[k].0 == c.line);
            match on_line_of {
                Some(k) if c.trailing => {
                    let mut n = 0;
                    for item in &mut m.items {
                        if let Item::Require(r) = item {
                            if n == k {
                                r.comment = Some(c.text.clone());
                            }
                            n += 1;
                        }
                    }
                }
                _ => inside.push((next, Item::Comment(c.text))),
            }
        }
    }
    if !inside.is_empty() {
        let reqs = std::mem::take(&mut m.items);
        let mut comments = inside.into_iter().peekable();
        for (k, r) in reqs.into_iter().enumerate() {
            while let Some((_, c)) = comments.next_if(|(n, _)| *n <= k) {
                m.items.push(c);
            }
            m.items.push(r);
        }
        m.items.extend(comments.map(|(_, c)| c));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        parse_version(s).unwrap()
    }

    #[test]
    fn parses_requirements_with_and_without_hashes() {
        let m = parse_manifest(
            "-- comment\npackage github.com/me/proj\n\nrequire {\n  github.com/a/b 1.2.3 #0123abcd -- why\n  gitlab.com/c/d/e 0.1.0-20200101+abc\n}\n",
        )
        .unwrap();
        assert_eq!(m.package.as_deref(), Some("github.com/me/proj"));
        let reqs: Vec<&Required> = m.required().collect();
        assert_eq!(
            reqs,
            vec![
                &Required {
                    path: "github.com/a/b".into(),
                    version: v("1.2.3"),
                    hash: Some("0123abcd".into()),
                    comment: Some(" why".into()),
                    line: 5
                },
                &Required {
                    path: "gitlab.com/c/d/e".into(),
                    version: v("0.1.0-20200101+abc"),
                    hash: None,
                    comment: None,
                    line: 6
                },
            ]
        );
        assert_eq!(m.package_comments, vec![" comment".to_string()]);
        assert_eq!(parse_manifest("").unwrap(), Manifest::default());
        assert_eq!(parse_manifest("require {}").unwrap().items, vec![]);
        let m = parse_manifest("require{github.com/a/b@2 2.0.0}").unwrap();
        assert_eq!(m.find("github.com/a/b@2").unwrap().version, v("2.0.0"));
    }

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse_manifest(text).unwrap_err();
        (e.line, e.col, e.message)
    }

    #[test]
    fn malformed_manifests_are_located() {
        let (l, c, m) = err("require {\n  github.com/a/b 1.2\n}\n");
        assert_eq!((l, c), (2, 18), "{m}");
        assert!(m.contains("version"), "{m}");
        let (l, c, m) = err("require {\n  github.com/a/b\n}\n");
        assert_eq!((l, c), (3, 1), "{m}");
        let (l, c, m) = err("require {\n  github.com/a/b 1.0.0 #xyz\n}");
        assert_eq!((l, c), (2, 24), "{m}");
        assert!(m.contains("hash"), "{m}");
        let (l, _, m) = err("require {\n  github.com/a/b 1.0.0\n");
        assert_eq!(l, 2, "{m}");
        assert!(m.contains("'}'"), "{m}");
        let (l, c2, m) = err("requires {\n}");
        assert_eq!((l, c2), (1, 1), "{m}");
        let (l, _, m) = err("require github.com/a/b 1.0.0");
        assert_eq!(l, 1);
        assert!(m.contains("'{'"), "{m}");
        let (l, c, m) = err("require {\n  github/a 1.0.0\n}");
        assert_eq!((l, c), (2, 3), "{m}");
        assert!(m.contains("package path"), "{m}");
        let (l, _, m) = err("require {\n github.com/a/b 1.0.0\n github.com/a/b 1.1.0\n}");
        assert_eq!(l, 3);
        assert!(m.contains("twice"), "{m}");
        let (l, c, m) = err("package github.com/a/b\npackage github.com/a/c\n");
        assert_eq!((l, c), (2, 1), "{m}");
        let (l, c, m) = err("require {\n}\npackage github.com/a/c\n");
        assert_eq!((l, c), (3, 1), "{m}");
        let (l, c, _) = err("package");
        assert_eq!((l, c), (1, 8));
    }

    #[test]
    fn comments_are_kept_in_normal_form() {
        let text = "-- My project.\n\
                    \n\
                    package   github.com/me/proj   -- the path\n\
                    -- What it needs:\n\
                    require { -- first\n\
                    \tgithub.com/a/b 1.2.3 #0123abcd   -- why\n\
                    \n\
                    -- between\n\
                    gitlab.com/c/d/e 0.1.0\n\
                    -- last\n\
                    } -- after\n\
                    -- the end\n";
        let m = parse_manifest(text).unwrap();
        let printed = m.print();
        assert_eq!(
            printed,
            "-- My project.\n\
             package github.com/me/proj -- the path\n\
             \n\
             -- What it needs:\n\
             require {\n\
             \x20 -- first\n\
             \x20 github.com/a/b 1.2.3 #0123abcd -- why\n\
             \x20 -- between\n\
             \x20 gitlab.com/c/d/e 0.1.0\n\
             \x20 -- last\n\
             }\n\
             -- after\n\
             -- the end\n"
        );
        // Round trip: the normal form is a fixed point.
        let again = parse_manifest(&printed).unwrap();
        assert_eq!(again.print(), printed);
        let mut a = again.clone();
        let mut b = m.clone();
        for x in [&mut a, &mut b] {
            for item in &mut x.items {
                if let Item::Require(r) = item {
                    r.line = 0;
                }
            }
        }
        assert_eq!(a, b);
    }

    #[test]
    fn round_trips() {
        for text in [
            "require {\n}\n",
            "package github.com/x/y\n\nrequire {\n}\n",
            "package github.com/x/y\n\nrequire {\n  github.com/a/b@2 2.1.0-rc.1 #ab\n  github.com/a/c 0.0.0-20240101000000+0123abcd\n}\n",
            "--\n--x\nrequire {\n  --\n}\n--end\n",
        ] {
            assert_eq!(parse_manifest(text).unwrap().print(), text);
        }
        // No require block: one is printed, after the comments.
        assert_eq!(
            parse_manifest("-- hi\npackage github.com/x/y -- z\n-- after\n")
                .unwrap()
                .print(),
            "-- hi\npackage github.com/x/y -- z\n\n-- after\nrequire {\n}\n"
        );
    }

    #[test]
    fn adding_and_removing() {
        let mut m = parse_manifest(
            "require {\n  github.com/a/b 1.0.0 -- keep\n  -- c\n  github.com/a/c 1.0.0\n}\n",
        )
        .unwrap();
        let new = |p: &str, ver: &str| Required {
            path: p.into(),
            version: v(ver),
            hash: Some("ff".into()),
            comment: None,
            line: 0,
        };
        let old = m.add(new("github.com/a/b", "1.1.0")).unwrap();
        assert_eq!(old.version, v("1.0.0"));
        assert_eq!(m.add(new("github.com/a/d", "0.1.0")), None);
        assert_eq!(
            m.print(),
            "require {\n  github.com/a/b 1.1.0 #ff -- keep\n  -- c\n  github.com/a/c 1.0.0\n  github.com/a/d 0.1.0 #ff\n}\n"
        );
        assert_eq!(m.remove("github.com/a/c").unwrap().version, v("1.0.0"));
        assert_eq!(m.remove("github.com/a/c"), None);
        assert_eq!(
            m.print(),
            "require {\n  github.com/a/b 1.1.0 #ff -- keep\n  -- c\n  github.com/a/d 0.1.0 #ff\n}\n"
        );
    }

    #[test]
    fn dashes_inside_a_word_are_no_comment() {
        let m = parse_manifest("require {\n  github.com/a/b--c 1.0.0\n}\n").unwrap();
        assert!(m.find("github.com/a/b--c").is_some());
    }
}
