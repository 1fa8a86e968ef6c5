//! Stage 2 of the pipeline: name resolution and type checking.
//!
//! Hindley–Milner inference with let-polymorphism, extended with Futhark's
//! overloading (literals and operators over classes of primitive types,
//! defaulting to `i32`/`f64`) and field constraints for record/tuple
//! projection. Array types carry their dimensions ([`tast::Dim`]): size
//! variables in scope, constants and size expressions (`n * m`), or
//! unknown. Dimensions are unified like types but never cause an error
//! (sizes are checked at run time); their purpose is inference: each use
//! of a function instantiates its size parameters with fresh size
//! variables, and what they resolve to in the caller is recorded in the
//! typed AST ([`tast::SizeInst`]) for the sizes no argument determines
//! (`unflatten`, `split`). The prelude (`prelude/*.fut`) is checked first and
//! its functions are part of the output.

mod decl;
mod env;
mod exhaust;
mod exp;
mod finish;
pub mod intrinsics;
mod numeric;
mod pat;
pub mod prelude;
pub mod print;
pub mod tast;
mod typeexp;
mod unify;

use parad_base::{Diagnostic, FileId, SourceMap, Span};
use parad_syntax::ast::{Decl, ModExp, Program};
use std::path::{Component, Path, PathBuf};
pub use tast::TProgram;

/// A type-checked program: the AST plus what the checker learnt about it.
#[derive(Debug)]
pub struct Checked {
    /// The user's file as parsed.
    pub program: Program,
    /// The typed program: prelude functions followed by the user's.
    pub typed: TProgram,
    pub entries: Vec<EntryPoint>,
}

/// An entry point's interface, with types printed as Futhark writes them
/// (`[]f32`, `i64`, `(f32, bool)`).
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    pub name: String,
    pub params: Vec<String>,
    pub results: Vec<String>,
    pub span: Span,
}

/// Parses and type checks the file `file` of `sources` (the prelude and
/// any imported files are added to `sources`).
///
/// `import "path"` (relative to the importing file, without `.fut`) checks
/// the named file first, once, wherever it is imported from; its top-level
/// definitions become visible to the files checked after it, but its entry
/// points are not entry points of the program. `open import "path"` means
/// the same. Files are read through [`std::fs`], named as the importing
/// file's name joined with the path, so that `check_source` with a bare
/// name resolves imports relative to the working directory.
pub fn check_file(sources: &mut SourceMap, file: FileId) -> Result<Checked, Vec<Diagnostic>> {
    let mut ck = env::Checker::default();
    let mut entries = vec![];
    let mut next_id = 0;
    ck.in_prelude = true;
    for (name, text) in prelude::FILES {
        let fid = sources.add(format!("prelude/{name}"), *text);
        let (prog, next) = parad_syntax::parse_with_ids(fid, text, next_id).map_err(|d| vec![d])?;
        next_id = next;
        for d in &prog.decls {
            ck.check_decl(d, &mut entries).map_err(|d| vec![d])?;
        }
    }
    ck.in_prelude = false;
    let text = sources.get(file).text.clone();
    let (program, next) =
        parad_syntax::parse_with_ids(file, &text, next_id).map_err(|d| vec![d])?;
    let mut imports = Imports {
        next_id: next,
        done: vec![],
        active: vec![(
            import_key(Path::new(&sources.get(file).name)),
            sources.get(file).name.clone(),
        )],
    };
    check_decls(
        &mut ck,
        sources,
        file,
        &program.decls,
        &mut entries,
        &mut imports,
    )
    .map_err(|d| vec![d])?;
    let typed = TProgram {
        funs: ck.funs,
        vars: ck.vars,
        type_params: ck.tparam_names,
    };
    Ok(Checked {
        program,
        typed,
        entries,
    })
}

/// The files imported so far.
struct Imports {
    next_id: u32,
    /// Files already checked (by [`import_key`]).
    done: Vec<PathBuf>,
    /// The chain of files being checked, importer first: key and name.
    active: Vec<(PathBuf, String)>,
}

/// A file's identity for imports: its canonical path when it exists.
fn import_key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The declaration under `local`/`open` that imports a file, if any.
fn imported(d: &Decl) -> Option<(&str, Span)> {
    match d {
        Decl::Import(path, span) => Some((path, *span)),
        Decl::Open(ModExp::Import(path, _), span) => Some((path, *span)),
        Decl::Local(d, _) => imported(d),
        _ => None,
    }
}

fn check_decls(
    ck: &mut env::Checker,
    sources: &mut SourceMap,
    file: FileId,
    decls: &[Decl],
    entries: &mut Vec<EntryPoint>,
    imports: &mut Imports,
) -> Result<(), Diagnostic> {
    for d in decls {
        match imported(d) {
            Some((path, span)) => import_file(ck, sources, file, path, span, imports)?,
            None => ck.check_decl(d, entries)?,
        }
    }
    Ok(())
}

/// Checks the file that `import "path"` (at `span` in `from`) names,
/// unless it was checked before.
fn import_file(
    ck: &mut env::Checker,
    sources: &mut SourceMap,
    from: FileId,
    path: &str,
    span: Span,
    imports: &mut Imports,
) -> Result<(), Diagnostic> {
    if path.is_empty() {
        return Err(Diagnostic::error(span, "empty import path"));
    }
    let dir = Path::new(&sources.get(from).name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let name = normalise(&dir.join(format!("{path}.fut")));
    let key = import_key(&name);
    if imports.done.contains(&key) {
        return Ok(());
    }
    if let Some(k) = imports.active.iter().position(|(a, _)| *a == key) {
        let chain: Vec<&str> = imports.active[k..]
            .iter()
            .map(|(_, n)| n.as_str())
            .collect();
        return Err(Diagnostic::error(
            span,
            format!(
                "import cycle: {} imports {}",
                chain.join(" imports "),
                name.display()
            ),
        )
        .with_note("a file cannot import a file that (directly or indirectly) imports it"));
    }
    let text = std::fs::read_to_string(&name).map_err(|e| {
        let d = Diagnostic::error(
            span,
            format!(
                "cannot import '{path}': cannot read {}: {e}",
                name.display()
            ),
        );
        // `lib/github.com/owner/repo/...`: a file of a package.
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            ["lib", host, owner, repo, _, ..]
                if e.kind() == std::io::ErrorKind::NotFound
                    && host.contains('.')
                    && !dir.join("lib").join(host).join(owner).join(repo).is_dir() =>
            {
                d.with_note(format!(
                    "the package '{host}/{owner}/{repo}' is not installed (no {}); \
                     `futhark pkg sync` installs the packages that futhark.pkg requires",
                    normalise(&dir.join("lib").join(host).join(owner).join(repo)).display()
                ))
            }
            _ => d,
        }
    })?;
    let fid = sources.add(name.display().to_string(), text.clone());
    let (prog, next) = parad_syntax::parse_with_ids(fid, &text, imports.next_id)?;
    imports.next_id = next;
    imports
        .active
        .push((key.clone(), name.display().to_string()));
    // Entry points of imported files are ordinary functions.
    let was = std::mem::replace(&mut ck.in_import, true);
    let mut ignored = vec![];
    let r = check_decls(ck, sources, fid, &prog.decls, &mut ignored, imports);
    ck.in_import = was;
    imports.active.pop();
    r?;
    imports.done.push(key);
    Ok(())
}

/// Removes `.` and `a/..` components without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Checks source text given by name; returns the source map (for
/// rendering diagnostics) with the result.
pub fn check_source(name: &str, text: &str) -> (SourceMap, Result<Checked, Vec<Diagnostic>>) {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let r = check_file(&mut sources, file);
    (sources, r)
}
