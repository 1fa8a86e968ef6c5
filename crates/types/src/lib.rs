//! Stage 2 of the pipeline: name resolution and type checking.
//!
//! Hindley–Milner inference with let-polymorphism, extended with Futhark's
//! overloading (literals and operators over classes of primitive types,
//! defaulting to `i32`/`f64`) and field constraints for record/tuple
//! projection. Array types carry their dimensions ([`tast::Dim`]): size
//! variables in scope, constants and size expressions (`n * m`), or
//! unknown. Dimensions are unified like types; they cause an error only
//! where sizes known on both sides differ and must agree statically
//! (arguments, ascriptions, function results, loops, the sizes a `let`
//! pattern binds, a size made of itself), and are otherwise checked at run
//! time. Their main purpose is inference: each use
//! of a function instantiates its size parameters with fresh size
//! variables, and what they resolve to in the caller is recorded in the
//! typed AST ([`tast::SizeInst`]) for the sizes no argument determines
//! (`unflatten`, `split`). The prelude (`prelude/*.fut`) is checked first and
//! its functions are part of the output.

pub mod api;
pub mod automap;
mod decl;
mod env;
mod exhaust;
mod exp;
mod finish;
pub mod intrinsics;
mod modules;
mod numeric;
mod pat;
pub mod prelude;
pub mod print;
mod recursion;
mod sig;
pub mod tast;
mod typeexp;
mod unify;
mod unique;

use parad_base::{Diagnostic, FileId, SourceMap, Span};
use parad_syntax::ast::{Exp, ExpId, Program};
use std::path::Path;
pub use tast::TProgram;

/// A type-checked program: the AST plus what the checker learnt about it.
#[derive(Debug)]
pub struct Checked {
    /// The user's file as parsed.
    pub program: Program,
    /// The typed program: prelude functions followed by the user's.
    pub typed: TProgram,
    pub entries: Vec<EntryPoint>,
    /// The definitions AUTOMAP elaborated (in any file): the id of the body
    /// as written and the body with its maps explicit.
    pub elaborated: Vec<(ExpId, Exp)>,
    /// Time spent checking the definitions outside the prelude, and the
    /// part of it spent in AUTOMAP.
    pub check_time: std::time::Duration,
    pub automap_time: std::time::Duration,
    /// The ILP sizes of the definitions AUTOMAP ran on, by name (or what
    /// rank inference does not model in the definition).
    pub automap_stats: Vec<(String, Result<automap::IlpStats, &'static str>)>,
}

impl Checked {
    /// The user's file with every definition AUTOMAP elaborated written
    /// with its maps explicit (`parad dump --stage=elaborated`).
    pub fn elaborated_program(&self) -> Program {
        let mut bodies: std::collections::HashMap<ExpId, &Exp> =
            self.elaborated.iter().map(|(id, e)| (*id, e)).collect();
        let mut p = self.program.clone();
        parad_syntax::visit::walk_program_mut(&mut p, &mut |e| {
            if let Some(b) = bodies.remove(&e.id) {
                *e = b.clone();
            }
        });
        p
    }
}

/// An entry point's interface, with types printed as Futhark writes them
/// (`[]f32`, `i64`, `(f32, bool)`).
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    pub name: String,
    pub params: Vec<String>,
    pub results: Vec<String>,
    pub span: Span,
    /// The interface of the compiled entry point (C API, server).
    pub api: api::ApiEntry,
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
    ck.files.sources = std::mem::take(sources);
    let r = check_with(&mut ck, file);
    *sources = std::mem::take(&mut ck.files.sources);
    let program = r.map_err(|d| vec![d])?;
    let typed = TProgram {
        funs: ck.funs,
        vars: ck.vars,
        type_params: ck.tparam_names,
    };
    Ok(Checked {
        program,
        typed,
        entries: ck.entries,
        elaborated: ck.elaborated,
        automap_stats: ck.automap_stats,
        check_time: ck.check_time,
        automap_time: ck.automap_time,
    })
}

fn check_with(ck: &mut env::Checker, file: FileId) -> Result<Program, Diagnostic> {
    let mut next_id = 0;
    ck.in_prelude = true;
    let mut ignored = modules::ModEnv::default();
    for (name, text) in prelude::FILES {
        let fid = ck.files.sources.add(format!("prelude/{name}"), *text);
        let (prog, next) = parad_syntax::parse_with_ids(fid, text, next_id)?;
        next_id = next;
        for d in &prog.decls {
            ck.check_decl(d, &mut ignored, true)?;
        }
    }
    ck.in_prelude = false;
    ck.files.prelude = Some(ck.scope_now());
    let text = ck.files.sources.get(file).text.clone();
    let (program, next) = parad_syntax::parse_with_ids(file, &text, next_id)?;
    ck.files.next_id = next;
    let name = ck.files.sources.get(file).name.clone();
    ck.files
        .active
        .push((modules::import_key(Path::new(&name)), name));
    let mut exports = modules::ModEnv::default();
    ck.check_decls(&program.decls, &mut exports)?;
    Ok(program)
}

/// Checks source text given by name; returns the source map (for
/// rendering diagnostics) with the result.
pub fn check_source(name: &str, text: &str) -> (SourceMap, Result<Checked, Vec<Diagnostic>>) {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let r = check_file(&mut sources, file);
    (sources, r)
}
