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
use parad_syntax::ast::Program;
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
    let (program, _) = parad_syntax::parse_with_ids(file, &text, next_id).map_err(|d| vec![d])?;
    for d in &program.decls {
        ck.check_decl(d, &mut entries).map_err(|d| vec![d])?;
    }
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

/// Checks source text given by name; returns the source map (for
/// rendering diagnostics) with the result.
pub fn check_source(name: &str, text: &str) -> (SourceMap, Result<Checked, Vec<Diagnostic>>) {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let r = check_file(&mut sources, file);
    (sources, r)
}
