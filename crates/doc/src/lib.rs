//! `parad doc`: HTML documentation of a Futhark library, as `futhark doc`
//! makes it.
//!
//! The input is a folder (every `.fut` file under it, recursively) or one
//! file; the files they import are documented too. The program is type
//! checked as a whole first (a folder is checked as one file importing
//! each of its files), so only a type-correct program is documented and
//! the checker's inferred types can stand in for missing annotations.
//! Then each file is parsed again (with the checker's file numbering, so
//! that spans match the checked functions) and walked in import order by
//! [`env::Walker`], which resolves the names of signatures and doc links
//! to the pages and anchors of their definitions.
//!
//! The output is built in memory ([`Output`]) and written only when all
//! of it is ready ([`write`]), so an error leaves the output folder
//! untouched. Pages are deterministic: files, members and index entries
//! come in a fixed order and nothing depends on time or hashing.
//!
//! Pages: `index.html` (the files and their abstracts), `doc-index.html`
//! (every documented name, alphabetically), one page per file (its path
//! relative to the input folder, `.fut` replaced by `.html`; a `..` of a
//! file outside the folder becomes `_up`), and `style.css`. A file whose
//! leading doc comment is just `ignore` gets no page. The leading doc
//! comment of a file is its abstract, as in Futhark: when the file starts
//! with a single doc comment, it documents the file, not the first
//! declaration.

#![warn(missing_docs)]

pub mod env;
pub mod html;
pub mod markdown;

use env::{Env, FileCtx, Item, Kind, Walker};
use html::esc;
use parad_base::{FileId, SourceMap};
use parad_syntax::ast::{Decl, ModExp, Program};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// The style sheet of every page.
pub const STYLE: &str = include_str!("style.css");

/// The source name given to the file that imports every file of a folder.
const ROOT_NAME: &str = ".parad-doc-root.fut";

/// Why documentation could not be made.
#[derive(Debug)]
pub enum DocError {
    /// An error outside the program: the input cannot be read or holds
    /// no Futhark file, or the output cannot be written.
    Input(String),
    /// The program does not parse or type check: the rendered
    /// diagnostics, with their locations.
    Program(String),
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocError::Input(m) => write!(f, "error: {m}"),
            DocError::Program(m) => f.write_str(m),
        }
    }
}

/// The documentation, ready to be written.
#[derive(Debug, Default)]
pub struct Output {
    /// File contents by path relative to the output folder
    /// (`/`-separated).
    pub files: BTreeMap<String, String>,
    /// Doc links that did not resolve, one message each.
    pub warnings: Vec<String>,
}

/// One file of the program being documented.
struct DocFile {
    id: FileId,
    /// Source name, as the checker named it.
    name: String,
    /// Page path and title (the path relative to the input folder).
    page: String,
    title: String,
    program: Program,
    abstract_doc: Option<String>,
    ignored: bool,
}

/// Documents the folder or file `input`; `log` receives status messages
/// (for `--verbose`).
pub fn generate(input: &Path, log: &mut dyn FnMut(&str)) -> Result<Output, DocError> {
    let meta = std::fs::metadata(input)
        .map_err(|e| DocError::Input(format!("cannot read {}: {e}", input.display())))?;
    let mut sources = SourceMap::new();
    let (root, base, root_documented) = if meta.is_dir() {
        let mut found = vec![];
        fut_files(input, input, &mut found)
            .map_err(|e| DocError::Input(format!("cannot read {}: {e}", input.display())))?;
        if found.is_empty() {
            return Err(DocError::Input(format!(
                "no .fut files in {}",
                input.display()
            )));
        }
        let mut text = String::new();
        for rel in &found {
            log(&format!("Found source file {}", input.join(rel).display()));
            let path = rel.to_string_lossy();
            if path.contains(['"', '\\', '\n']) {
                return Err(DocError::Input(format!(
                    "cannot document {}: the file name cannot be imported",
                    input.join(rel).display()
                )));
            }
            let stem = path.strip_suffix(".fut").unwrap_or(&path);
            text.push_str(&format!("import \"{stem}\"\n"));
        }
        let name = input.join(ROOT_NAME).to_string_lossy().into_owned();
        (sources.add(name, text), input.to_path_buf(), false)
    } else {
        log(&format!("Found source file {}", input.display()));
        let text = parad_base::read_source(input)
            .map_err(|e| DocError::Input(format!("cannot read {}: {e}", input.display())))?;
        let base = input.parent().map(Path::to_path_buf).unwrap_or_default();
        (
            sources.add(input.to_string_lossy().into_owned(), text),
            base,
            true,
        )
    };
    log("Type checking");
    let checked = match parad_types::check_file(&mut sources, root) {
        Ok(c) => c,
        Err(ds) => {
            return Err(DocError::Program(
                ds.iter().map(|d| d.render(&sources)).collect(),
            ))
        }
    };
    let prelude_files = parad_types::prelude::FILES.len() as u32;
    let base = parad_syntax::normalise_path(&base);
    let mut files = vec![];
    for (id, f) in sources.files() {
        let documented = if id == root {
            root_documented
        } else {
            id.0 > prelude_files
        };
        if !documented {
            continue;
        }
        let mut program =
            parad_syntax::parse(id, &f.text).map_err(|d| DocError::Program(d.render(&sources)))?;
        let abstract_doc = file_doc(&f.text, &mut program);
        let ignored = abstract_doc
            .as_deref()
            .is_some_and(|d| d.trim() == "ignore");
        let rel = page_path(&parad_syntax::normalise_path(Path::new(&f.name)), &base);
        let title = rel.strip_suffix(".fut").unwrap_or(&rel).to_string();
        // The contents and the index keep their names.
        let page = match title.as_str() {
            "index" | "doc-index" => format!("{rel}.html"),
            _ => format!("{title}.html"),
        };
        files.push(DocFile {
            id,
            name: f.name.clone(),
            page,
            title,
            program,
            abstract_doc,
            ignored,
        });
    }
    files.sort_by(|a, b| a.page.cmp(&b.page));
    let order = import_order(&files);

    let mut funs = HashMap::new();
    for f in &checked.typed.funs {
        funs.entry((f.span.file.0, f.span.start)).or_insert(f);
    }
    let pages: HashMap<String, String> = files
        .iter()
        .filter(|f| !f.ignored)
        .map(|f| (f.name.clone(), f.page.clone()))
        .collect();
    let mut exports: HashMap<String, Rc<Env>> = HashMap::new();
    let mut out = Output::default();
    let mut documented: Vec<(usize, Vec<Item>, String)> = vec![];
    for k in order {
        let f = &files[k];
        let mut walker = Walker::new(FileCtx {
            page: f.page.clone(),
            name: f.name.clone(),
            documented: !f.ignored,
            funs: &funs,
            type_params: &checked.typed.type_params,
            files: &exports,
            pages: &pages,
            sources: &sources,
        });
        let doc = walker.cx.documented;
        let mut scope = Env::default();
        let mut ex = Env::default();
        let mut items = vec![];
        walker.decls(&f.program.decls, &mut scope, &mut ex, &[], doc, &mut items);
        let abstract_html = match (&f.abstract_doc, doc) {
            (Some(d), true) => {
                let span = parad_base::Span::new(f.id, 0, 0);
                walker.doc_html(d, span, &scope)
            }
            _ => String::new(),
        };
        out.warnings.append(&mut walker.warnings);
        exports.insert(f.name.clone(), Rc::new(ex));
        if doc {
            documented.push((k, items, abstract_html));
        }
    }
    documented.sort_by(|a, b| files[a.0].page.cmp(&files[b.0].page));
    let mut index_entries = vec![];
    for (k, items, abstract_html) in &documented {
        let f = &files[*k];
        out.files
            .insert(f.page.clone(), file_page(f, items, abstract_html));
        collect_index(items, f, &mut index_entries);
    }
    out.files
        .insert("index.html".into(), contents_page(&files, &documented));
    out.files
        .insert("doc-index.html".into(), name_index_page(index_entries));
    out.files.insert("style.css".into(), STYLE.to_string());
    Ok(out)
}

/// Writes `out` into the folder `dir` (created if needed); `log`
/// receives a line per file.
pub fn write(out: &Output, dir: &Path, log: &mut dyn FnMut(&str)) -> Result<(), DocError> {
    let fail =
        |p: &Path, e: std::io::Error| DocError::Input(format!("cannot write {}: {e}", p.display()));
    for (rel, text) in &out.files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        log(&format!("Writing {}", path.display()));
        std::fs::write(&path, text).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

/// The `.fut` files under `dir`, relative to `root`, sorted by path.
fn fut_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if e.file_type()?.is_dir() {
            fut_files(root, &path, out)?;
        } else if path.extension().is_some_and(|x| x == "fut")
            && path.file_name().is_some_and(|n| n != ROOT_NAME)
            && path.is_file()
        {
            if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
    }
    Ok(())
}

/// The path of `file` relative to the folder `base` (both normalised),
/// `/`-separated; a `..` is written `_up`, so that every page stays in
/// the output folder.
fn page_path(file: &Path, base: &Path) -> String {
    let f: Vec<Component> = file.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = f.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["_up".to_string(); b.len() - common];
    for c in &f[common..] {
        parts.push(match c {
            Component::Normal(s) => s.to_string_lossy().into_owned(),
            Component::ParentDir => "_up".to_string(),
            _ => continue,
        });
    }
    parts.join("/")
}

/// The doc comment blocks before the first token of `text`, as the
/// lexer reads them: a block starts with `-- |` and goes on over the
/// following `--` lines.
fn leading_docs(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = vec![];
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(comment) = t.strip_prefix("--") else {
            break;
        };
        if let Some(rest) = comment.trim_start().strip_prefix('|') {
            blocks.push(
                rest.strip_prefix(' ')
                    .unwrap_or(rest)
                    .trim_end()
                    .to_string(),
            );
        } else if let Some(b) = blocks.last_mut() {
            b.push('\n');
            b.push_str(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
        }
    }
    blocks
}

/// The file's abstract: its first leading doc comment. When it is the
/// only one, the parser attached it to the first declaration, which it
/// does not document (as in Futhark).
fn file_doc(text: &str, program: &mut Program) -> Option<String> {
    let blocks = leading_docs(text);
    let first = blocks.first()?.clone();
    if blocks.len() == 1 {
        if let Some(d) = program.decls.first_mut() {
            clear_doc(d);
        }
    }
    Some(first)
}

fn clear_doc(d: &mut Decl) {
    match d {
        Decl::Val(v) => v.doc = None,
        Decl::Type(t) => t.doc = None,
        Decl::Module(m) => m.doc = None,
        Decl::ModType(m) => m.doc = None,
        Decl::Local(d, _) => clear_doc(d),
        Decl::Open(..) | Decl::Import(..) => {}
    }
}

/// The files in an order where each comes after the files it imports
/// (otherwise by page path).
fn import_order(files: &[DocFile]) -> Vec<usize> {
    let by_name: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(k, f)| (f.name.as_str(), k))
        .collect();
    let mut done = vec![false; files.len()];
    let mut order = vec![];
    fn visit(
        k: usize,
        files: &[DocFile],
        by_name: &HashMap<&str, usize>,
        done: &mut [bool],
        order: &mut Vec<usize>,
    ) {
        if done[k] {
            return;
        }
        done[k] = true;
        let mut imports = vec![];
        decls_imports(&files[k].program.decls, &mut imports);
        for p in imports {
            let name = env::import_name(&files[k].name, &p);
            if let Some(&j) = by_name.get(name.as_str()) {
                visit(j, files, by_name, done, order);
            }
        }
        order.push(k);
    }
    for k in 0..files.len() {
        visit(k, files, &by_name, &mut done, &mut order);
    }
    order
}

/// Every import path in `decls`, at any depth.
fn decls_imports(decls: &[Decl], out: &mut Vec<String>) {
    for d in decls {
        match d {
            Decl::Import(p, _) => out.push(p.clone()),
            Decl::Open(me, _) => mod_exp_imports(me, out),
            Decl::Module(m) => mod_exp_imports(&m.body, out),
            Decl::Local(d, _) => decls_imports(std::slice::from_ref(d), out),
            Decl::Val(_) | Decl::Type(_) | Decl::ModType(_) => {}
        }
    }
}

fn mod_exp_imports(me: &ModExp, out: &mut Vec<String>) {
    match me {
        ModExp::Import(p, _) => out.push(p.clone()),
        ModExp::Struct(ds, _) => decls_imports(ds, out),
        ModExp::Apply(a, b, _) => {
            mod_exp_imports(a, out);
            mod_exp_imports(b, out);
        }
        ModExp::Ascribe(m, _, _) | ModExp::Lambda(_, _, m, _) => mod_exp_imports(m, out),
        ModExp::Var(_) => {}
    }
}

/// A whole page around `body`: `page` is its path (for the relative
/// links to the style sheet and the index pages).
fn boilerplate(page: &str, title: &str, body: &str) -> String {
    let to = |p: &str| esc(&html::relative(page, p));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<link rel=\"stylesheet\" href=\"{css}\">\n</head>\n<body>\n\
         <header>\n<h1>{t}</h1>\n<nav><a href=\"{contents}\">Contents</a> \
         <a href=\"{index}\">Index</a></nav>\n</header>\n<main>\n{body}</main>\n</body>\n</html>\n",
        t = esc(title),
        css = to("style.css"),
        contents = to("index.html"),
        index = to("doc-index.html"),
    )
}

/// The page of one file: abstract, synopsis, then each declaration.
fn file_page(f: &DocFile, items: &[Item], abstract_html: &str) -> String {
    let mut body = String::new();
    if !abstract_html.is_empty() {
        body.push_str(&format!(
            "<section id=\"abstract\">\n<h2>Abstract</h2>\n{abstract_html}</section>\n"
        ));
    }
    body.push_str("<section id=\"synopsis\">\n<h2>Synopsis</h2>\n");
    if items.is_empty() {
        body.push_str("<p>Nothing is exported.</p>\n");
    } else {
        body.push_str("<ul class=\"synopsis\">\n");
        for it in items {
            body.push_str(&format!("<li><code>{}</code></li>\n", it.sig_html));
        }
        body.push_str("</ul>\n");
    }
    body.push_str("</section>\n");
    if !items.is_empty() {
        body.push_str("<section id=\"description\">\n<h2>Description</h2>\n");
        for it in items {
            decl_html(it, &mut body);
        }
        body.push_str("</section>\n");
    }
    boilerplate(&f.page, &f.title, &body)
}

/// One declaration: signature, doc, members.
fn decl_html(it: &Item, out: &mut String) {
    match &it.anchor {
        Some(a) => out.push_str(&format!("<div class=\"decl\" id=\"{}\">\n", esc(a))),
        None => out.push_str("<div class=\"decl\">\n"),
    }
    out.push_str(&format!(
        "<pre class=\"sig\"><code>{}</code></pre>\n",
        it.sig_html
    ));
    if !it.doc_html.is_empty() {
        out.push_str(&format!("<div class=\"doc\">\n{}</div>\n", it.doc_html));
    }
    if !it.children.is_empty() {
        out.push_str("<div class=\"members\">\n");
        for c in &it.children {
            decl_html(c, out);
        }
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
}

/// An entry of the name index: name, kind, page, anchor, file title.
type IndexEntry = (String, Kind, String, String, String);

fn collect_index(items: &[Item], f: &DocFile, out: &mut Vec<IndexEntry>) {
    for it in items {
        if let Some(a) = &it.anchor {
            out.push((
                it.name.clone(),
                it.kind,
                f.page.clone(),
                a.clone(),
                f.title.clone(),
            ));
        }
        collect_index(&it.children, f, out);
    }
}

/// `index.html`: the documented files with the first paragraph of their
/// abstracts.
fn contents_page(files: &[DocFile], documented: &[(usize, Vec<Item>, String)]) -> String {
    let mut body = String::from("<dl class=\"files\">\n");
    for (k, _, _) in documented {
        let f = &files[*k];
        body.push_str(&format!(
            "<dt><a href=\"{}\">{}</a></dt>\n",
            esc(&f.page),
            esc(&f.title)
        ));
        if let Some(d) = &f.abstract_doc {
            // Links are left out here: the first paragraph is a summary.
            let first = markdown::first_paragraph(d);
            let html = markdown::render(&first, &mut |_, _| None);
            body.push_str(&format!("<dd>{html}</dd>\n"));
        }
    }
    body.push_str("</dl>\n");
    boilerplate("index.html", "Library documentation", &body)
}

/// `doc-index.html`: every documented name, alphabetically.
fn name_index_page(mut entries: Vec<IndexEntry>) -> String {
    entries.sort_by(|a, b| {
        (a.0.to_lowercase(), &a.0, &a.2, &a.3).cmp(&(b.0.to_lowercase(), &b.0, &b.2, &b.3))
    });
    let mut body =
        String::from("<table class=\"index\">\n<tr><th>Name</th><th>Kind</th><th>File</th></tr>\n");
    for (name, kind, page, anchor, title) in &entries {
        body.push_str(&format!(
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td><a href=\"{}\">{}</a></td></tr>\n",
            html::href("doc-index.html", page, Some(anchor)),
            esc(name),
            kind.describe(),
            html::href("doc-index.html", page, None),
            esc(title)
        ));
    }
    body.push_str("</table>\n");
    boilerplate("doc-index.html", "Index", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_doc_blocks() {
        assert_eq!(
            leading_docs("-- | A\n-- b\n\n-- plain\n-- | C\ndef x = 1\n-- | D"),
            vec!["A\nb\nplain".to_string(), "C".to_string()]
        );
        assert!(leading_docs("def x = 1\n-- | D").is_empty());
    }

    #[test]
    fn page_paths() {
        assert_eq!(
            page_path(Path::new("lib/a/b.fut"), Path::new("lib")),
            "a/b.fut"
        );
        assert_eq!(page_path(Path::new("x.fut"), Path::new("")), "x.fut");
        assert_eq!(
            page_path(Path::new("other/x.fut"), Path::new("lib")),
            "_up/other/x.fut"
        );
    }
}
