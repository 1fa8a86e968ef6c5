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
pub mod print;
pub mod sexp;
pub mod visit;

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
    with_big_stack(|| {
        let mut p = Parser::new(file, text, first_id)?;
        let prog = p.program()?;
        Ok((prog, p.next_id()))
    })
}

/// Parses a single expression (the whole text).
pub fn parse_exp(file: FileId, text: &str) -> Result<ast::Exp, Diagnostic> {
    with_big_stack(|| {
        let mut p = Parser::new(file, text, 0)?;
        let e = p.exp()?;
        p.expect_eof()?;
        Ok(e)
    })
}

/// Parses a single type expression (the whole text).
pub fn parse_type(file: FileId, text: &str) -> Result<ast::TypeExp, Diagnostic> {
    with_big_stack(|| {
        let mut p = Parser::new(file, text, 0)?;
        let t = p.type_exp()?;
        p.expect_eof()?;
        Ok(t)
    })
}

/// The file that `import "path"` in the file named `from` reads: `path`
/// with `.fut` appended, relative to the folder of `from`, with `.` and
/// `a/..` components removed by [`normalise_path`]. The type checker reads
/// the file by this name and the documentation links imports by it, so
/// both use this one rule.
pub fn import_file(from: &str, path: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(from)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    normalise_path(&dir.join(format!("{path}.fut")))
}

/// `p` without `.` components, and with each `a/..` removed, without
/// touching the file system (a `..` with no name before it stays).
pub fn normalise_path(p: &std::path::Path) -> std::path::PathBuf {
    use std::path::{Component, PathBuf};
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

/// Stack for the parser's thread. The recursive descent is bounded by a
/// nesting limit, but unoptimised builds use large frames, and callers'
/// threads (test threads have 2 MiB) may be small; only touched pages of
/// this reservation are ever committed.
const PARSER_STACK: usize = 64 << 20;

/// Runs `f` on a thread with a large stack (on the caller's thread if no
/// thread can be started).
fn with_big_stack<T: Send, F: FnOnce() -> T + Send>(f: F) -> T {
    let slot = std::sync::Mutex::new(Some(f));
    let run = |slot: &std::sync::Mutex<Option<F>>| {
        let f = slot.lock().ok().and_then(|mut g| g.take());
        f.map(|f| f())
    };
    let spawned = std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || run(&slot));
        h.ok()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    match spawned.flatten() {
        Some(r) => r,
        None => match run(&slot) {
            Some(r) => r,
            None => unreachable!("the parser closure runs exactly once"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn import_files() {
        assert_eq!(import_file("lib/a.fut", "b"), Path::new("lib/b.fut"));
        assert_eq!(import_file("lib/a.fut", "../c/./d"), Path::new("c/d.fut"));
        assert_eq!(import_file("a.fut", "../x"), Path::new("../x.fut"));
        assert_eq!(normalise_path(Path::new("./a/../../b")), Path::new("../b"));
    }
}
