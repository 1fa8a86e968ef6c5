//! Stage 1 of the pipeline: Futhark source text → AST with spans.

pub mod ast;

use parad_base::{Diagnostic, FileId};

/// Parses one source file. The parser stops at the first syntax error.
/// (Stub until the parser lands: accepts only the empty program.)
pub fn parse(file: FileId, text: &str) -> Result<ast::Program, Diagnostic> {
    let _ = file;
    if text.trim().is_empty() {
        Ok(ast::Program { decls: vec![] })
    } else {
        Err(Diagnostic::nowhere("parser not implemented yet"))
    }
}
