//! The pages `parad_doc::generate` makes for a small library of two
//! files, checked by exact fragments: doc comment Markdown, cross-links in
//! the term, type and module type namespaces (within a page and between
//! pages), a module and its module type, escaping, the abstract, the
//! indexes, `local` and "ignore" files left out, and type errors.

use parad_doc::{generate, DocError, Output};
use std::path::Path;

const LIB: &str = "\
-- | Geometry helpers.
--
-- See `norm`@term.

-- | A point in the plane.
type point = {x: f64, y: f64}

-- | Length of `p`, a `point`@type; compare with `shape`@mtype.
-- Uses *squares* < cubes.
def norm (p: point) : f64 = f64.sqrt (p.x * p.x + p.y * p.y)

-- | Shapes.
module type shape = {
  -- | The representation.
  type s
  -- | Area of an `s`@type.
  val area : s -> f64
}

-- | Circles.
module circle : shape with s = f64 = {
  type s = f64
  def area (r: f64) = 3.0 * r * r
}

local def hidden (x: i32) = x

def (<+>) (a: point) (b: point) : point = {x = a.x + b.x, y = a.y + b.y}

def twice x = x * 2i64
";

const USE: &str = "\
-- | Uses the library.

import \"../lib\"

-- | The area of a circle: `circle.area`@term, not `hidden`@term.
def circle_area (r: f64) : f64 = circle.area r

def origin : point = {x = 0, y = 0}
";

const IGNORED: &str = "\
-- | ignore

import \"sub/use\"

entry main (r: f64) = circle_area r
";

fn library(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("lib.fut"), LIB).unwrap();
    std::fs::write(dir.join("sub/use.fut"), USE).unwrap();
    std::fs::write(dir.join("tests.fut"), IGNORED).unwrap();
}

fn docs(dir: &Path) -> Output {
    match generate(dir, &mut |_| {}) {
        Ok(o) => o,
        Err(e) => panic!("{e}"),
    }
}

fn page<'a>(out: &'a Output, name: &str) -> &'a str {
    out.files
        .get(name)
        .unwrap_or_else(|| panic!("no page {name}: {:?}", out.files.keys()))
}

#[track_caller]
fn has(text: &str, fragment: &str) {
    assert!(text.contains(fragment), "missing\n{fragment}\nin\n{text}");
}

#[test]
fn pages_of_a_library() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let out = docs(tmp.path());
    let names: Vec<&str> = out.files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "doc-index.html",
            "index.html",
            "lib.html",
            "style.css",
            "sub/use.html"
        ]
    );

    let lib = page(&out, "lib.html");
    // The abstract, with its link.
    has(
        lib,
        "<section id=\"abstract\">\n<h2>Abstract</h2>\n<p>Geometry helpers.</p>\n\
         <p>See <a href=\"#term:norm\"><code>norm</code></a>.</p>\n</section>\n",
    );
    // A documented value: signature with a link to a type, Markdown, links
    // in the type and module type namespaces, `<` escaped.
    has(
        lib,
        "<div class=\"decl\" id=\"term:norm\">\n\
         <pre class=\"sig\"><code><span class=\"kw\">val</span> <a class=\"name\" href=\"#term:norm\">norm</a> : \
         (p: <a href=\"#type:point\">point</a>) -&gt; f64</code></pre>\n\
         <div class=\"doc\">\n<p>Length of <code>p</code>, a <a href=\"#type:point\"><code>point</code></a>; \
         compare with <a href=\"#mtype:shape\"><code>shape</code></a>.\n\
         Uses <em>squares</em> &lt; cubes.</p>\n</div>\n</div>\n",
    );
    has(
        lib,
        "<pre class=\"sig\"><code><span class=\"kw\">type</span> <a class=\"name\" href=\"#type:point\">point</a> = \
         {x: f64, y: f64}</code></pre>",
    );
    // A module type with its specifications as members.
    has(
        lib,
        "<div class=\"decl\" id=\"mtype:shape\">\n\
         <pre class=\"sig\"><code><span class=\"kw\">module type</span> <a class=\"name\" href=\"#mtype:shape\">shape</a></code></pre>\n\
         <div class=\"doc\">\n<p>Shapes.</p>\n</div>\n\
         <div class=\"members\">\n\
         <div class=\"decl\" id=\"type:shape.s\">\n\
         <pre class=\"sig\"><code><span class=\"kw\">type</span> <a class=\"name\" href=\"#type:shape.s\">s</a></code></pre>\n\
         <div class=\"doc\">\n<p>The representation.</p>\n</div>\n</div>\n\
         <div class=\"decl\" id=\"term:shape.area\">\n\
         <pre class=\"sig\"><code><span class=\"kw\">val</span> <a class=\"name\" href=\"#term:shape.area\">area</a> : \
         <a href=\"#type:shape.s\">s</a> -&gt; f64</code></pre>\n\
         <div class=\"doc\">\n<p>Area of an <a href=\"#type:shape.s\"><code>s</code></a>.</p>\n</div>\n</div>\n\
         </div>\n</div>\n",
    );
    // A module and its signature.
    has(
        lib,
        "<pre class=\"sig\"><code><span class=\"kw\">module</span> <a class=\"name\" href=\"#term:circle\">circle</a> : \
         <a href=\"#mtype:shape\">shape</a> <span class=\"kw\">with</span> <a href=\"#type:shape.s\">s</a> = f64</code></pre>",
    );
    // An operator: escaped name and id.
    has(
        lib,
        "<div class=\"decl\" id=\"term:~3c+~3e\">\n\
         <pre class=\"sig\"><code><span class=\"kw\">val</span> <a class=\"name\" href=\"#term:~3c+~3e\">(&lt;+&gt;)</a> : \
         (a: <a href=\"#type:point\">point</a>) -&gt; (b: <a href=\"#type:point\">point</a>) -&gt; \
         <a href=\"#type:point\">point</a></code></pre>",
    );
    // No annotation: the inferred type.
    has(
        lib,
        "<a class=\"name\" href=\"#term:twice\">twice</a> : (x: i64) -&gt; i64</code>",
    );
    // The synopsis lists the declarations; `local` ones are left out.
    has(
        lib,
        "<ul class=\"synopsis\">\n<li><code><span class=\"kw\">type</span> <a class=\"name\" href=\"#type:point\">point</a>",
    );
    assert_eq!(lib.matches("<li><code>").count(), 6, "{lib}");
    assert!(!lib.contains("hidden"), "{lib}");

    // Links to the other file, relative to the page's folder.
    let usep = page(&out, "sub/use.html");
    has(usep, "<link rel=\"stylesheet\" href=\"../style.css\">");
    has(
        usep,
        "<p>The area of a circle: <a href=\"../lib.html#term:shape.area\"><code>circle.area</code></a>, \
         not <code>hidden</code>.</p>",
    );
    has(
        usep,
        "<a class=\"name\" href=\"#term:origin\">origin</a> : <a href=\"../lib.html#type:point\">point</a></code>",
    );
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0].ends_with("use.fut:6:1: cannot resolve the doc link `hidden`@term"),
        "{:?}",
        out.warnings
    );

    // The ignored file has no page and is not in the contents.
    let contents = page(&out, "index.html");
    has(
        contents,
        "<dl class=\"files\">\n\
         <dt><a href=\"lib.html\">lib</a></dt>\n<dd><p>Geometry helpers.</p>\n</dd>\n\
         <dt><a href=\"sub/use.html\">sub/use</a></dt>\n<dd><p>Uses the library.</p>\n</dd>\n</dl>\n",
    );
    assert!(!contents.contains("tests"), "{contents}");

    // Every name, alphabetically.
    let index = page(&out, "doc-index.html");
    let rows: Vec<&str> = index
        .lines()
        .filter(|l| l.starts_with("<tr><td>"))
        .collect();
    assert_eq!(
        rows,
        [
            "<tr><td><a href=\"lib.html#term:~3c+~3e\">&lt;+&gt;</a></td><td>value</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"lib.html#term:circle\">circle</a></td><td>module</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"sub/use.html#term:circle_area\">circle_area</a></td><td>value</td><td><a href=\"sub/use.html\">sub/use</a></td></tr>",
            "<tr><td><a href=\"lib.html#term:norm\">norm</a></td><td>value</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"sub/use.html#term:origin\">origin</a></td><td>value</td><td><a href=\"sub/use.html\">sub/use</a></td></tr>",
            "<tr><td><a href=\"lib.html#type:point\">point</a></td><td>type</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"lib.html#mtype:shape\">shape</a></td><td>module type</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"lib.html#term:shape.area\">shape.area</a></td><td>value</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"lib.html#type:shape.s\">shape.s</a></td><td>type</td><td><a href=\"lib.html\">lib</a></td></tr>",
            "<tr><td><a href=\"lib.html#term:twice\">twice</a></td><td>value</td><td><a href=\"lib.html\">lib</a></td></tr>",
        ]
    );
}

#[test]
fn same_input_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let a = docs(tmp.path());
    let b = docs(tmp.path());
    assert_eq!(a.files, b.files);
}

#[test]
fn one_file_and_its_imports() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let out = docs(&tmp.path().join("sub/use.fut"));
    let names: Vec<&str> = out.files.keys().map(String::as_str).collect();
    // Pages are named relative to the file's folder.
    assert_eq!(
        names,
        [
            "_up/lib.html",
            "doc-index.html",
            "index.html",
            "style.css",
            "use.html"
        ]
    );
    has(
        page(&out, "use.html"),
        "<a href=\"_up/lib.html#type:point\">point</a>",
    );
}

#[test]
fn leading_doc_comments() {
    let tmp = tempfile::tempdir().unwrap();
    // Two leading comments: the first is the abstract, the second
    // documents the first declaration.
    std::fs::write(
        tmp.path().join("two.fut"),
        "-- | File.\n\n-- | Value <b>.\ndef v : i32 = 1\n",
    )
    .unwrap();
    // One leading comment documents the file only.
    std::fs::write(tmp.path().join("one.fut"), "-- | Only.\ndef w : i32 = 1\n").unwrap();
    let out = docs(tmp.path());
    let two = page(&out, "two.html");
    has(two, "<h2>Abstract</h2>\n<p>File.</p>\n");
    has(two, "<div class=\"doc\">\n<p>Value &lt;b&gt;.</p>\n</div>");
    let one = page(&out, "one.html");
    has(one, "<h2>Abstract</h2>\n<p>Only.</p>\n");
    assert!(!one.contains("<div class=\"doc\">"), "{one}");
}

#[test]
fn type_errors_are_located() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("good.fut"), "def a : i32 = 1\n").unwrap();
    std::fs::write(
        tmp.path().join("bad.fut"),
        "def a : i32 = 1\ndef b : bool = a\n",
    )
    .unwrap();
    match generate(tmp.path(), &mut |_| {}) {
        Err(DocError::Program(m)) => {
            assert!(m.contains("bad.fut:2:16"), "{m}");
            assert!(m.starts_with("error:"), "{m}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a type error was documented"),
    }
}

#[test]
fn bad_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    match generate(tmp.path(), &mut |_| {}) {
        Err(DocError::Input(m)) => assert!(m.starts_with("no .fut files in "), "{m}"),
        _ => panic!("an empty folder was documented"),
    }
    match generate(&tmp.path().join("absent"), &mut |_| {}) {
        Err(DocError::Input(m)) => assert!(m.starts_with("cannot read "), "{m}"),
        _ => panic!("a missing file was documented"),
    }
}

#[test]
fn modules_open_and_functors() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("m.fut"),
        "type t = i32\n\
         module inner = {\n  -- | Uses the outer `t`@type.\n  def a : t = 1\n}\n\
         open inner\n\
         module type has_t = { type t }\n\
         module f (p: has_t) = { type u = p.t }\n\
         module g = f { type t = bool }\n",
    )
    .unwrap();
    let out = docs(tmp.path());
    let m = page(&out, "m.html");
    has(
        m,
        "<div class=\"decl\" id=\"term:inner.a\">\n<pre class=\"sig\"><code><span class=\"kw\">val</span> \
         <a class=\"name\" href=\"#term:inner.a\">a</a> : <a href=\"#type:t\">t</a></code></pre>\n\
         <div class=\"doc\">\n<p>Uses the outer <a href=\"#type:t\"><code>t</code></a>.</p>\n</div>\n</div>\n",
    );
    has(
        m,
        "<li><code><span class=\"kw\">open</span> <a href=\"#term:inner\">inner</a></code></li>",
    );
    has(
        m,
        "<li><code><span class=\"kw\">module</span> <a class=\"name\" href=\"#term:f\">f</a> \
         (p: <a href=\"#mtype:has_t\">has_t</a>)</code></li>",
    );
    has(
        m,
        "<pre class=\"sig\"><code><span class=\"kw\">type</span> <a class=\"name\" href=\"#type:f.u\">u</a> = <a href=\"#type:has_t.t\">p.t</a></code></pre>",
    );
    has(
        m,
        "<li><code><span class=\"kw\">module</span> <a class=\"name\" href=\"#term:g\">g</a> = \
         <a href=\"#term:f\">f</a> {…}</code></li>",
    );
}
