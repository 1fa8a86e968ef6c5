//! `parad fmt`: a layout-preserving formatter for Futhark programs.
//!
//! # Design
//!
//! The formatter never rebuilds the program from its syntax tree (the
//! printer in `parad_syntax::print` desugars and drops comments and
//! parentheses). It works from the **token stream**: every token is written
//! with its source text, in order, and every comment is kept. What changes
//! is only the whitespace between tokens:
//!
//! - **Line breaks are the user's.** A line break is kept where the source
//!   had one and none is added, so an expression written on one line stays
//!   on one line and one written across lines stays across lines (the
//!   behaviour `futhark fmt` documents: insert a line break to have a long
//!   expression laid out over several lines).
//! - **Spacing within a line**: runs of spaces and tabs become one space;
//!   where the source had no space there is none, because Futhark's lexer is
//!   whitespace-sensitive (`f a[i]` indexes, `f a [i]` applies `f` to an
//!   array; `r.x` projects, `r .x` does not). The only spaces added are
//!   around infix operators (`a+b` becomes `a + b`, found from the syntax
//!   tree's operator spans), around `=` and `->`, and after commas; the
//!   only ones removed are before commas. None of these tokens is one whose
//!   neighbours' spacing the grammar looks at, so this changes neither how
//!   the text lexes nor how it parses.
//! - **Indentation** is recomputed for every line from the syntax tree
//!   (the `tree` module), with the spans telling which construct a line starts in
//!   (see the style rules below). Futhark is not indentation-sensitive, so
//!   indentation never changes the meaning.
//! - **Comments** stay where they were: a comment at the end of a code line
//!   stays there (after the same amount of whitespace); a comment on a line
//!   of its own stays on its own line, indented like the code line after it.
//!   Doc comments (`-- |`) are comments like any other.
//! - **Blank lines**: runs of blank lines become one; blank lines at the
//!   start and end of the file are dropped; trailing whitespace is removed;
//!   the file ends with one line break.
//!
//! **Safety check.** After formatting, the output is parsed again and
//! compared with the input: the same declarations (compared through their
//! S-expression rendering, [`parad_syntax::sexp`]), the same doc comments,
//! the same tokens and the same comments. If anything differs, that is a
//! formatter bug: [`format`] returns [`FmtError::Internal`] and the caller
//! leaves the file unchanged.
//!
//! Because the line structure and tokens are kept, and indentation depends
//! only on the line structure and tokens, formatting is idempotent.
//!
//! # Style rules (indentation)
//!
//! Indentation is 2 spaces. "The column of a construct" is the column of
//! its first token (after parentheses that only group it). The rules follow
//! the layout of programs formatted by `futhark fmt` (Futhark's test suite).
//!
//! - Top-level declarations start in column 0; declarations and
//!   specifications inside `{ ... }` module bodies and signatures are two
//!   columns past the indentation of the line with the `{`, and the `}`
//!   lines up with that line. Two exceptions for module headers written
//!   over several lines: a signature `{` after a `:` that starts a line is
//!   laid out from the `{`'s column, and a `{` ending a header line that
//!   starts with `}` or `:` (`} = {`) from the declaration's first line.
//!   Module expressions and module types place their lines from the
//!   indentation of their first line.
//! - Continuation lines of a construct are two columns past its column: a
//!   definition's body after `def f x =`, the right-hand side of a `let`,
//!   the branches of an `if`, a lambda's body, a `loop`'s body, a case's
//!   body. A lambda that is the last argument of an application without
//!   parentheses (`tabulate n \i ->`) is laid out from the application.
//! - Layout keywords line up with the construct they belong to: `in` (and
//!   the body after it, so a chain of `let`s lines up) with its `let`;
//!   `then` and `else` with their `if` (an `if` right after `else`, on the
//!   same line or the next, counts as the outer `if`, so `else if` chains
//!   line up); `for`, `while` and `do` with their `loop`; `case` with its
//!   `match`; `with` with the updated expression; `:>` with the coerced
//!   expression.
//! - Infix operators and their operands line up with the first operand, so
//!   a pipeline `xs\n|> map f\n|> sum` is one column.
//! - Arguments of an application on later lines line up with the first
//!   argument if that one is on the function's line (otherwise they are
//!   two columns in); the same for a definition's parameters (type
//!   parameters included), its return type's `:`, and the elements of
//!   tuples, arrays and records.
//! - A closing bracket at the start of a line lines up with its opening
//!   bracket, and so does a leading comma; a line that starts right after
//!   an opening bracket is two columns past it.
//! - A sum type on a line of its own is four columns in, so that the `|`
//!   of its later lines stand two columns in.
//! - Where a comment at the end of a line broke it after `then`, `else`,
//!   `in`, `do`, a `:` or an infix operator, the next line starts where the
//!   code would have continued on the broken line.
//!
//! Computing the indentation is one pass over the layout tree (which line
//! starts in which construct) and then one pass over the lines, so it takes
//! time linear in the program even for very deep trees (long `let` chains).

mod layout;
mod tree;

use parad_base::{Diagnostic, FileId, SourceMap};
use parad_syntax::{lexer, parse, sexp};
use std::fmt;

/// Why a program was not formatted.
#[derive(Clone, Debug, PartialEq)]
pub enum FmtError {
    /// The program does not parse: the diagnostic rendered with the file
    /// name, line, column and a source excerpt, as `parad check` prints it.
    Parse(String),
    /// A formatter bug: the formatted text would not mean the same as the
    /// input. The message names the file and what differed.
    Internal(String),
}

impl fmt::Display for FmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FmtError::Parse(text) => f.write_str(text.trim_end()),
            FmtError::Internal(msg) => write!(f, "internal formatter error: {msg}"),
        }
    }
}

impl std::error::Error for FmtError {}

/// Formats a whole program; `file_name` names it in error messages.
///
/// The result parses to the same syntax tree, with the same tokens and
/// comments, as `source` (this is checked), and formatting it again gives
/// the same text.
pub fn format(source: &str, file_name: &str) -> Result<String, FmtError> {
    with_big_stack(|| format_here(source, file_name))
}

/// Stack for the formatting thread: the layout tree and the syntax tree are
/// walked recursively, and chains of `let`s or of left-associative
/// operators, which the parser reads iteratively, make trees as deep as the
/// chain is long. Only touched pages of the reservation are committed.
const STACK_SIZE: usize = 1 << 30;

/// Runs `f` on a thread with a big stack (on the caller's thread if no
/// thread can be started).
fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut f = Some(f);
    let spawned = std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, || f.take().map(|f| f()));
        h.ok()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    match (spawned.flatten(), f.take()) {
        (Some(r), _) => r,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the closure ran but gave no result"),
    }
}

fn format_here(source: &str, file_name: &str) -> Result<String, FmtError> {
    let mut sources = SourceMap::new();
    let file = sources.add(file_name, source);
    let prog = parse(file, source).map_err(|d| FmtError::Parse(d.render(&sources)))?;
    let internal = |msg: String| FmtError::Internal(format!("{file_name}: {msg}"));
    let lexed = lexer::lex(file, source).map_err(|d| internal(d.message))?;
    let out = layout::layout(source, &lexed.tokens, &prog).map_err(internal)?;
    verify(source, &out).map_err(internal)?;
    Ok(out)
}

/// Whether `source` is already formatted (it parses and formats to itself).
pub fn is_formatted(source: &str, file_name: &str) -> Result<bool, FmtError> {
    format(source, file_name).map(|out| out == source)
}

/// Checks that `formatted` means what `original` means: the same
/// declarations and doc comments, the same tokens, the same comments.
fn verify(original: &str, formatted: &str) -> Result<(), String> {
    let file = FileId(0);
    let a = parse(file, original).map_err(|d| d.message)?;
    let b = parse(file, formatted).map_err(|d| {
        let at = d.span.map_or(0, |s| s.start as usize);
        let (l, c) = line_col(formatted, at);
        format!("the formatted text does not parse ({l}:{c}: {})", d.message)
    })?;
    if let Some(difference) = sexp::first_difference(&a, &b) {
        return Err(difference);
    }
    let (ta, ca) = tokens_and_comments(original)?;
    let (tb, cb) = tokens_and_comments(formatted)?;
    if ta != tb {
        let i = ta.iter().zip(&tb).take_while(|(x, y)| x == y).count();
        return Err(format!(
            "token {} changed: {:?} became {:?}",
            i + 1,
            ta.get(i),
            tb.get(i)
        ));
    }
    if ca != cb {
        return Err("the comments changed".to_string());
    }
    Ok(())
}

/// The token texts and the comments of a source text.
fn tokens_and_comments(src: &str) -> Result<(Vec<&str>, Vec<&str>), String> {
    let lexed = lexer::lex(FileId(0), src).map_err(|d: Diagnostic| d.message)?;
    let mut toks = vec![];
    let mut comments = vec![];
    let mut prev = 0;
    for t in &lexed.tokens {
        let r = t.span.range();
        for piece in layout::trivia(&src[prev..r.start])? {
            if let layout::Trivia::Comment(c) = piece {
                comments.push(c);
            }
        }
        toks.push(&src[r.clone()]);
        prev = r.end;
    }
    Ok((toks, comments))
}

/// Line and column (from 1) of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::verify;

    /// The safety check catches every kind of change a formatter bug
    /// could make.
    #[test]
    fn verify_catches_changes() {
        let ok = |a: &str, b: &str| verify(a, b).is_ok();
        assert!(ok("def f = a[i]", "def f =\n  a[i]\n"));
        // Indexing became application to an array literal.
        assert!(!ok("def f = a[i]", "def f = a [i]"));
        // A projection became an application... or does not parse.
        assert!(!ok("def f = r.x", "def f = r .x"));
        // A declaration lost, a comment lost or changed, a doc changed.
        assert!(!ok("def f = 1\ndef g = 2", "def f = 1"));
        assert!(!ok("def f = 1 -- c", "def f = 1"));
        assert!(!ok("def f = 1 -- c", "def f = 1 -- d"));
        assert!(!ok("-- | a\ndef f = 1", "-- | b\ndef f = 1"));
        // Same tree, different tokens (redundant parentheses).
        assert!(!ok("def f = (1)", "def f = 1"));
        // Output that does not parse.
        let e = verify("def f = 1", "def f =").unwrap_err();
        assert!(e.contains("does not parse (1:8"), "{e}");
    }
}
