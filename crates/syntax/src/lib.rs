//! Stage 1 of the pipeline: Futhark source text → AST with spans.
//!
//! Choices the grammar leaves open:
//! - `-1` is `Negate(Lit 1)`; literals are never negative in expressions
//!   (in `match` patterns a negated literal is [`ast::Pat::NegLit`]).
//! - A chain of names joined by `.` without spaces (`r.x.y`, `f32.sqrt`)
//!   is one [`ast::ExpKind::Var`]; the type checker tells modules from
//!   record projections. Numeric fields and projections of other
//!   expressions are [`ast::ExpKind::Project`].
//! - Operator precedence follows Futhark's implementation, where `|>` and
//!   `<|` bind looser than `||` (so `f <| x && y` applies `f` to the
//!   conjunction).

pub mod ast;
pub mod lexer;
mod parser;
pub mod sexp;

use parad_base::{Diagnostic, FileId};
use parser::Parser;

/// Parses one source file. The parser stops at the first syntax error.
pub fn parse(file: FileId, text: &str) -> Result<ast::Program, Diagnostic> {
    parse_with_ids(file, text, 0).map(|(p, _)| p)
}

/// Parses one source file, numbering expressions from `first_id`; returns
/// the program and the next unused [`ast::ExpId`] number, so that several
/// files can be given disjoint ids.
pub fn parse_with_ids(
    file: FileId,
    text: &str,
    first_id: u32,
) -> Result<(ast::Program, u32), Diagnostic> {
    let mut p = Parser::new(file, text, first_id)?;
    let prog = p.program()?;
    Ok((prog, p.next_id()))
}

/// Parses a single expression (the whole text).
pub fn parse_exp(file: FileId, text: &str) -> Result<ast::Exp, Diagnostic> {
    let mut p = Parser::new(file, text, 0)?;
    let e = p.exp()?;
    p.expect_eof()?;
    Ok(e)
}

/// Parses a single type expression (the whole text).
pub fn parse_type(file: FileId, text: &str) -> Result<ast::TypeExp, Diagnostic> {
    let mut p = Parser::new(file, text, 0)?;
    let t = p.type_exp()?;
    p.expect_eof()?;
    Ok(t)
}
