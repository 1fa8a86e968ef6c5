//! `parad pkg check`: whether the packages a project's `futhark.pkg`
//! requires are installed under its `lib/` folder, where `futhark pkg
//! sync` puts them (`lib/github.com/owner/repo/`).
//!
//! `futhark.pkg` holds an optional `package PATH` line and a block
//! `require { PATH VERSION [#HASH] ... }`, with `--` comments; a package
//! path is a host name followed by the repository's path
//! (`github.com/owner/repo`), a version is `MAJOR.MINOR.PATCH` with an
//! optional `-pre-release` and `+build` part.

use crate::args::{PkgArgs, PkgCommand};
use crate::Failure;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

pub fn pkg(args: &PkgArgs) -> Result<(), Failure> {
    match &args.command {
        PkgCommand::Check { dir } => check(dir),
    }
}

/// One `require` line.
#[derive(Debug, PartialEq)]
pub struct Required {
    pub path: String,
    pub version: String,
    pub hash: Option<String>,
    /// Line of the requirement (1-based).
    pub line: usize,
}

/// A parsed `futhark.pkg`.
#[derive(Debug, Default, PartialEq)]
pub struct Manifest {
    pub package: Option<String>,
    pub required: Vec<Required>,
}

/// An error at `line:col` (1-based) of the manifest.
#[derive(Debug, PartialEq)]
pub struct ManifestError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

fn check(dir: &Path) -> Result<(), Failure> {
    if !dir.is_dir() {
        return Err(Failure::msg(format!("{} is not a folder", dir.display())));
    }
    let file = dir.join("futhark.pkg");
    let text = match std::fs::read(&file) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| Failure::msg(format!("{}: not UTF-8 text", file.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::msg(format!(
                "no futhark.pkg in {} (it lists the packages a project requires)",
                dir.display()
            )))
        }
        Err(e) => return Err(Failure::msg(format!("cannot read {}: {e}", file.display()))),
    };
    let manifest = parse_manifest(&text).map_err(|e| {
        Failure::Program(format!(
            "error: {}:{}:{}: {}\n",
            file.display(),
            e.line,
            e.col,
            e.message
        ))
    })?;
    if manifest.required.is_empty() {
        return crate::out::with_stdout(|out| {
            writeln!(out, "{}: no packages required", file.display())
        });
    }
    let mut missing = vec![];
    crate::out::with_stdout(|out| {
        for r in &manifest.required {
            let at = dir.join("lib").join(&r.path);
            if at.is_dir() {
                writeln!(
                    out,
                    "{} {}: installed in {}",
                    r.path,
                    r.version,
                    at.display()
                )?;
            } else {
                writeln!(
                    out,
                    "{} {}: missing (no {})",
                    r.path,
                    r.version,
                    at.display()
                )?;
                missing.push(r);
            }
        }
        Ok(())
    })?;
    if missing.is_empty() {
        return Ok(());
    }
    let mut msg = format!(
        "error: {} of the {} package(s) that {} requires {} not installed:\n",
        missing.len(),
        manifest.required.len(),
        file.display(),
        if missing.len() == 1 { "is" } else { "are" }
    );
    for r in &missing {
        let _ = writeln!(
            msg,
            "  {} {} (required on line {})",
            r.path, r.version, r.line
        );
    }
    let _ = writeln!(
        msg,
        "run `futhark pkg sync` in {} to install them under lib/",
        dir.display()
    );
    Err(Failure::Program(msg))
}

/// A word of the manifest with its 1-based position.
struct Token<'a> {
    text: &'a str,
    line: usize,
    col: usize,
}

/// Splits the manifest into words and braces, dropping `--` comments.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let line = match line.find("--") {
            Some(k) => &line[..k],
            None => line,
        };
        // Byte ranges of the words and braces of the line.
        let mut spans: Vec<(usize, usize)> = vec![];
        let mut start = None;
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
                start = Some(k);
            }
        }
        if let Some(s) = start {
            spans.push((s, line.len()));
        }
        out.extend(spans.into_iter().map(|(from, to)| Token {
            text: &line[from..to],
            line: i + 1,
            col: line[..from].chars().count() + 1,
        }));
    }
    out
}

/// Parses the text of a `futhark.pkg`.
pub fn parse_manifest(text: &str) -> Result<Manifest, ManifestError> {
    let toks = tokens(text);
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
    let mut seen_require = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.text {
            "package" if m.package.is_none() && !seen_require => {
                let p = toks.get(i + 1).ok_or_else(|| end("a package path"))?;
                check_path(p.text).map_err(|e| err(p, e))?;
                m.package = Some(p.text.to_string());
                i += 2;
            }
            "package" => {
                return Err(err(
                    t,
                    "'package' must come once, before 'require'".to_string(),
                ))
            }
            "require" if !seen_require => {
                seen_require = true;
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
                        i += 1;
                        break;
                    }
                    check_path(p.text).map_err(|e| err(p, e))?;
                    if let Some(prev) = m.required.iter().find(|r| r.path == p.text) {
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
                    if v.line != p.line || !is_version(v.text) {
                        return Err(err(
                            v,
                            format!(
                                "expected a version such as 1.2.3 after '{}', found '{}'",
                                p.text, v.text
                            ),
                        ));
                    }
                    i += 2;
                    let mut hash = None;
                    if let Some(h) = toks.get(i).filter(|h| h.text.starts_with('#')) {
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
                    m.required.push(Required {
                        path: p.text.to_string(),
                        version: v.text.to_string(),
                        hash,
                        line: p.line,
                    });
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
    Ok(m)
}

/// A package path: a host name with a dot, then at least two more
/// components (`github.com/owner/repo`).
fn check_path(p: &str) -> Result<(), String> {
    let parts: Vec<&str> = p.split('/').collect();
    let ok_part = |s: &&str| {
        !s.is_empty()
            && *s != "."
            && *s != ".."
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    if parts.len() >= 3 && parts[0].contains('.') && parts.iter().all(ok_part) {
        Ok(())
    } else {
        Err(format!(
            "expected a package path such as github.com/owner/repo, found '{p}'"
        ))
    }
}

/// `MAJOR.MINOR.PATCH`, optionally followed by `-pre.release` and
/// `+build`.
fn is_version(v: &str) -> bool {
    let (core, rest) = match v.find(['-', '+']) {
        Some(k) => (&v[..k], &v[k..]),
        None => (v, ""),
    };
    let nums: Vec<&str> = core.split('.').collect();
    let ok_core = nums.len() == 3
        && nums
            .iter()
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let ok_rest = rest
        .chars()
        .skip(1)
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        && rest.len() != 1;
    ok_core && ok_rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_requirements_with_and_without_hashes() {
        let m = parse_manifest(
            "-- comment\npackage github.com/me/proj\n\nrequire {\n  github.com/a/b 1.2.3 #0123abcd -- why\n  gitlab.com/c/d/e 0.1.0-20200101+abc\n}\n",
        )
        .unwrap();
        assert_eq!(m.package.as_deref(), Some("github.com/me/proj"));
        assert_eq!(
            m.required,
            vec![
                Required {
                    path: "github.com/a/b".into(),
                    version: "1.2.3".into(),
                    hash: Some("0123abcd".into()),
                    line: 5
                },
                Required {
                    path: "gitlab.com/c/d/e".into(),
                    version: "0.1.0-20200101+abc".into(),
                    hash: None,
                    line: 6
                },
            ]
        );
        assert_eq!(parse_manifest("").unwrap(), Manifest::default());
        assert_eq!(parse_manifest("require {}").unwrap().required, vec![]);
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
    }
}
