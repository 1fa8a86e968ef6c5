//! `parad doc` end to end: a folder of two files, one importing the
//! other, plus a file marked "ignore". Every link of every page must lead
//! to an existing page and, where it names one, an existing anchor; a type
//! error is reported with its location, exits non-zero and writes
//! nothing.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BASE: &str = "\
-- | Basic numbers.

-- | A pair of numbers.
type pair = (f32, f32)

-- | Swaps a `pair`@type.
def swap ((a, b): pair) : pair = (b, a)

-- | Things with a zero.
module type zero = {
  -- | The type.
  type t
  -- | Its zero, a `t`@type.
  val zero : t
}

-- | The zero of `f32`.
module fzero : zero with t = f32 = {
  type t = f32
  def zero = 0f32
}
";

const TOP: &str = "\
-- | Uses `swap`@term.

import \"base\"

-- | Both components zero; see `fzero`@term and `zero`@mtype.
def origin : pair = swap (fzero.zero, fzero.zero)

-- | A <i>tagged</i> & escaped comment.
def first (p: pair) : f32 = p.0
";

const IGNORED: &str = "-- | ignore\n\nimport \"top\"\n\nentry main (x: f32) = first (x, x)\n";

fn parad_doc(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .arg("doc")
        .args(args)
        .output()
        .unwrap()
}

fn library(dir: &Path) {
    std::fs::write(dir.join("base.fut"), BASE).unwrap();
    std::fs::write(dir.join("top.fut"), TOP).unwrap();
    std::fs::write(dir.join("tests.fut"), IGNORED).unwrap();
}

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Joins a relative link to the folder of `page` (no `..` past the root).
fn resolve(page: &str, target: &str) -> String {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for p in target.split('/') {
        match p {
            ".." => {
                assert!(
                    parts.pop().is_some(),
                    "{target} from {page} leaves the folder"
                );
            }
            "." => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[test]
fn documents_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    library(&src);
    let out = tmp.path().join("out");
    let o = parad_doc(&[Path::new("-v"), Path::new("-o"), &out, &src]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("Found source file"), "{stderr}");
    assert!(stderr.contains("Writing "), "{stderr}");

    let pages = files(&out);
    let names: Vec<&str> = pages.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "base.html",
            "doc-index.html",
            "index.html",
            "style.css",
            "top.html"
        ]
    );

    // Every page is a complete document, and every link leads somewhere.
    let href = Regex::new(r#"href="([^"]*)""#).unwrap();
    let id = Regex::new(r#"id="([^"]*)""#).unwrap();
    let ids: BTreeMap<&str, BTreeSet<String>> = pages
        .iter()
        .map(|(p, text)| {
            let set = id.captures_iter(text).map(|c| unescape(&c[1])).collect();
            (p.as_str(), set)
        })
        .collect();
    let mut anchors_followed = 0;
    for (page, text) in pages.iter().filter(|(p, _)| p.ends_with(".html")) {
        assert!(
            text.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
            "{page}"
        );
        assert!(text.ends_with("</html>\n"), "{page}");
        for c in href.captures_iter(text) {
            let target = unescape(&c[1]);
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f.to_string(), Some(a.to_string())),
                None => (target.clone(), None),
            };
            let file = if file.is_empty() {
                page.clone()
            } else {
                resolve(page, &file)
            };
            let Some(there) = ids.get(file.as_str()) else {
                panic!("{page}: link {target} to a missing page");
            };
            if let Some(a) = anchor {
                assert!(
                    there.contains(&a),
                    "{page}: link {target} to a missing anchor"
                );
                anchors_followed += 1;
            }
        }
    }
    assert!(anchors_followed > 20, "{anchors_followed}");

    // Cross-links between the files, both namespaces.
    let top = &pages["top.html"];
    assert!(
        top.contains("<p>Uses <a href=\"base.html#term:swap\"><code>swap</code></a>.</p>"),
        "{top}"
    );
    assert!(
        top.contains(
            "see <a href=\"base.html#term:fzero\"><code>fzero</code></a> and \
             <a href=\"base.html#mtype:zero\"><code>zero</code></a>.</p>"
        ),
        "{top}"
    );
    assert!(
        top.contains("(p: <a href=\"base.html#type:pair\">pair</a>) -&gt; f32"),
        "{top}"
    );
    assert!(
        top.contains("<p>A &lt;i&gt;tagged&lt;/i&gt; &amp; escaped comment.</p>"),
        "{top}"
    );
    // The index lists every name; the ignored file is nowhere.
    let index = &pages["doc-index.html"];
    for name in [
        "first",
        "fzero",
        "origin",
        "pair",
        "swap",
        "zero",
        "zero.t",
        "zero.zero",
    ] {
        assert!(
            index.contains(&format!("\">{name}</a></td>")),
            "{name}: {index}"
        );
    }
    assert!(!pages.values().any(|t| t.contains("tests")));

    // Running again gives the same bytes.
    let o = parad_doc(&[Path::new("-o"), &out, &src]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(files(&out), pages);
}

#[test]
fn type_error_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    library(&src);
    std::fs::write(
        src.join("broken.fut"),
        "import \"base\"\n\ndef bad : pair = 1\n",
    )
    .unwrap();
    let out: PathBuf = tmp.path().join("out");
    let o = parad_doc(&[Path::new("-o"), &out, &src]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error:"), "{stderr}");
    assert!(stderr.contains("broken.fut:3:18"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    // No output folder.
    let o = parad_doc(&[tmp.path()]);
    assert_eq!(o.status.code(), Some(2));
    // Nothing to document.
    let o = parad_doc(&[Path::new("-o"), &tmp.path().join("out"), tmp.path()]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.starts_with("error: no .fut files in "), "{stderr}");
}
