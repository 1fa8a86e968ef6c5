//! A hand-written recursive-descent parser with precedence climbing for
//! infix operators. It stops at the first error, reported as
//! "unexpected X, expected Y" at the offending token.

mod decls;
mod exps;
mod mods;
mod pats;
mod types;
mod update;

pub(crate) use exps::symbol_prec;

use crate::ast::*;
use crate::lexer::{self, Kw, Tok, Token};
use parad_base::{Diagnostic, FileId, Span};
use std::collections::HashMap;

/// Nesting limit for expressions, types, patterns and modules; beyond it
/// parsing fails instead of overflowing the stack.
const MAX_DEPTH: u32 = 256;

pub(crate) type PResult<T> = Result<T, Diagnostic>;

pub(crate) struct Parser<'a> {
    src: &'a str,
    file: FileId,
    toks: Vec<Token>,
    docs: HashMap<usize, String>,
    pos: usize,
    next_id: u32,
    depth: u32,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(file: FileId, src: &'a str, first_id: u32) -> PResult<Parser<'a>> {
        let lexed = lexer::lex(file, src)?;
        Ok(Parser {
            src,
            file,
            toks: lexed.tokens,
            docs: lexed.docs,
            pos: 0,
            next_id: first_id,
            depth: 0,
        })
    }

    pub(crate) fn next_id(&self) -> u32 {
        self.next_id
    }

    // ───────────── token access ─────────────

    fn tok(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn token(&self) -> &Token {
        &self.toks[self.pos]
    }

    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    /// End of the last consumed token, for building spans.
    fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].span.end
        }
    }

    fn span_from(&self, start: Span) -> Span {
        Span {
            file: self.file,
            start: start.start,
            end: self.prev_end().max(start.start),
            frame: 0,
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn at(&self, t: &Tok) -> bool {
        self.tok() == t
    }

    fn at_kw(&self, k: Kw) -> bool {
        *self.tok() == Tok::Kw(k)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.at(t) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, k: Kw) -> bool {
        self.eat(&Tok::Kw(k))
    }

    /// The current token directly follows the previous one (no space).
    fn adjacent(&self) -> bool {
        self.pos > 0 && !self.token().space_before
    }

    /// Whether token `pos+n` directly follows token `pos+n-1`.
    fn adjacent_at(&self, n: usize) -> bool {
        let i = self.pos + n;
        i < self.toks.len() && i > 0 && !self.toks[i].space_before
    }

    fn is_symbol(&self, s: &str) -> bool {
        matches!(self.tok(), Tok::Symbol(x) if x == s)
    }

    // ───────────── errors ─────────────

    pub(crate) fn unexpected<T>(&self, expected: &str) -> PResult<T> {
        let t = self.token();
        let what = lexer::describe(t, self.src);
        Err(Diagnostic::error(
            t.span,
            format!("Unexpected {what}, expected {expected}"),
        ))
    }

    fn expect(&mut self, t: &Tok, expected: &str) -> PResult<Span> {
        if self.at(t) {
            Ok(self.bump().span)
        } else {
            self.unexpected(expected)
        }
    }

    fn expect_kw(&mut self, k: Kw, expected: &str) -> PResult<Span> {
        self.expect(&Tok::Kw(k), expected)
    }

    fn ident(&mut self, expected: &str) -> PResult<Ident> {
        match self.tok().clone() {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            _ => self.unexpected(expected),
        }
    }

    /// Runs `f` one nesting level deeper, failing beyond [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Diagnostic::error(
                self.span(),
                "expression nested too deeply",
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn mk(&mut self, kind: ExpKind, span: Span) -> Exp {
        let id = ExpId(self.next_id);
        self.next_id += 1;
        Exp { id, kind, span }
    }

    /// Parses a comma-separated list up to `close` (trailing comma allowed),
    /// consuming `close`. The opening token must already be consumed.
    fn comma_list<T>(
        &mut self,
        close: &Tok,
        what: &str,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = vec![];
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            items.push(item(self)?);
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(&Tok::Comma) {
                let close_text = match close {
                    Tok::RParen => "')'",
                    Tok::RBracket => "']'",
                    _ => "'}'",
                };
                return self.unexpected(&format!("',' or {close_text} after {what}"));
            }
        }
    }

    pub(crate) fn expect_eof(&self) -> PResult<()> {
        if self.at(&Tok::Eof) {
            Ok(())
        } else {
            self.unexpected("end of file")
        }
    }

    /// `#[attr]` after the `#[` has been consumed.
    fn attr_body(&mut self) -> PResult<Attr> {
        let a = self.attr()?;
        self.expect(&Tok::RBracket, "']' after attribute")?;
        Ok(a)
    }

    fn attr(&mut self) -> PResult<Attr> {
        self.nested(|p| {
            let start = p.span();
            match p.tok().clone() {
                Tok::Int { value, .. } => {
                    p.bump();
                    match i64::try_from(value) {
                        Ok(v) => Ok(Attr::Int(v, start)),
                        Err(_) => Err(Diagnostic::error(start, "attribute number is too large")),
                    }
                }
                Tok::Ident(_) | Tok::Kw(_) => {
                    let name = p.src[start.range()].to_string();
                    p.bump();
                    if p.at(&Tok::LParen) {
                        p.bump();
                        let args = p.comma_list(&Tok::RParen, "attribute", |p| p.attr())?;
                        Ok(Attr::Comp(name, args, p.span_from(start)))
                    } else {
                        Ok(Attr::Atom(name, start))
                    }
                }
                _ => p.unexpected("attribute"),
            }
        })
    }

    /// Type parameters `[n]`, `'a`, `'~a`, `'^a`, as many as there are.
    fn type_params(&mut self) -> PResult<Vec<TypeParam>> {
        let mut ps = vec![];
        loop {
            match self.tok() {
                Tok::LBracket => {
                    self.bump();
                    let n = self.ident("size parameter name")?;
                    self.expect(&Tok::RBracket, "']' after size parameter")?;
                    ps.push(TypeParam::Size(n));
                }
                Tok::Tick | Tok::TickTilde | Tok::TickHat => {
                    let l = match self.bump().tok {
                        Tok::Tick => Liftedness::Unlifted,
                        Tok::TickTilde => Liftedness::SizeLifted,
                        _ => Liftedness::Lifted,
                    };
                    let n = self.ident("type parameter name")?;
                    ps.push(TypeParam::Type(n, l));
                }
                _ => return Ok(ps),
            }
        }
    }

    /// A possibly qualified name `a.b.c` whose parts are joined by dots
    /// without spaces. The first part must be an identifier here.
    fn qualname(&mut self, expected: &str) -> PResult<QualName> {
        let first = self.ident(expected)?;
        let mut span = first.span;
        let mut quals = vec![];
        let mut name = first.name;
        while self.at(&Tok::Dot)
            && self.adjacent()
            && matches!(self.peek_at(1), Tok::Ident(_))
            && self.adjacent_at(1)
        {
            self.bump();
            let next = self.ident(expected)?;
            span = span.to(next.span);
            quals.push(std::mem::replace(&mut name, next.name));
        }
        Ok(QualName { quals, name, span })
    }
}
