//! What an input is: declarations, an expression, unfinished, or wrong.
//!
//! The text is parsed both as declarations and as an expression. If
//! either parse succeeds, that is what it is (declarations first, as in
//! Futhark's REPL: `let x = 1` declares `x`). If both fail and one of them
//! failed at the end of the text, more input could finish it. Otherwise
//! the error shown is that of the parse that got further into the text
//! (the one that better matches what was meant), the declaration's on a
//! tie when the text starts with a declaration's keyword.

use parad_base::{Diagnostic, FileId};
use parad_syntax::lexer::{self, Kw, Tok};

/// The kind of an input.
pub enum Kind {
    /// Only white space and comments.
    Empty,
    Decl,
    Exp,
    /// The parser stopped at the end of the text (the diagnostic says
    /// why, should no more input come).
    Incomplete(Diagnostic),
    Error(Diagnostic),
}

/// Classifies an input (see the module's documentation).
pub fn classify(text: &str) -> Kind {
    let file = FileId(0);
    let tokens = match lexer::lex(file, text) {
        Ok(l) => l.tokens,
        Err(d) => return Kind::Error(d),
    };
    let (first, end) = match (tokens.first(), tokens.last()) {
        (Some(f), Some(l)) => (f.tok.clone(), l.span.start),
        _ => return Kind::Empty,
    };
    if first == Tok::Eof {
        return Kind::Empty;
    }
    let decl = match parad_syntax::parse(file, text) {
        Ok(p) if !p.decls.is_empty() => return Kind::Decl,
        Ok(_) => return Kind::Empty,
        Err(d) => d,
    };
    let exp = match parad_syntax::parse_exp(file, text) {
        Ok(_) => return Kind::Exp,
        Err(d) => d,
    };
    let at = |d: &Diagnostic| d.span.map_or(0, |s| s.start);
    if at(&decl) >= end || at(&exp) >= end {
        let d = if at(&decl) >= end { decl } else { exp };
        return Kind::Incomplete(d);
    }
    let declares = matches!(
        first,
        Tok::Kw(
            Kw::Def
                | Kw::Let
                | Kw::Entry
                | Kw::Type
                | Kw::Module
                | Kw::Open
                | Kw::Import
                | Kw::Local
                | Kw::Include
        )
    );
    let further = if declares {
        at(&decl) >= at(&exp)
    } else {
        at(&decl) > at(&exp)
    };
    Kind::Error(if further { decl } else { exp })
}

/// Checks that `text` is one expression (for `:type`).
pub fn parse_exp(text: &str) -> Result<(), Diagnostic> {
    parad_syntax::parse_exp(FileId(0), text).map(|_| ())
}
