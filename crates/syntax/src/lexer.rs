//! The lexer: source text → tokens with spans.
//!
//! Futhark's grammar is whitespace-sensitive in a few places (`a[i]` is
//! indexing, `f [i]` is application to an array literal; `r.x` is a
//! qualified name or projection), so every token records whether it was
//! preceded by whitespace or a comment. Doc comments (`-- |`) are collected
//! and attached to the index of the token that follows them.

use crate::ast::IntSuffix;
use parad_base::{Diagnostic, FileId, FloatType, IntType, Span};
use std::collections::HashMap;

/// Reserved words of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    True,
    False,
    If,
    Then,
    Else,
    Def,
    Let,
    Loop,
    In,
    Val,
    For,
    Do,
    With,
    Local,
    Open,
    Include,
    Import,
    Type,
    Entry,
    Module,
    While,
    Assert,
    Match,
    Case,
}

impl Kw {
    fn from_str(s: &str) -> Option<Kw> {
        Some(match s {
            "true" => Kw::True,
            "false" => Kw::False,
            "if" => Kw::If,
            "then" => Kw::Then,
            "else" => Kw::Else,
            "def" => Kw::Def,
            "let" => Kw::Let,
            "loop" => Kw::Loop,
            "in" => Kw::In,
            "val" => Kw::Val,
            "for" => Kw::For,
            "do" => Kw::Do,
            "with" => Kw::With,
            "local" => Kw::Local,
            "open" => Kw::Open,
            "include" => Kw::Include,
            "import" => Kw::Import,
            "type" => Kw::Type,
            "entry" => Kw::Entry,
            "module" => Kw::Module,
            "while" => Kw::While,
            "assert" => Kw::Assert,
            "match" => Kw::Match,
            "case" => Kw::Case,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name (`x`, `f32`, `_`, `x'`); never a keyword.
    Ident(String),
    Kw(Kw),
    Int {
        value: u128,
        suffix: Option<IntSuffix>,
    },
    Float {
        value: f64,
        suffix: Option<FloatType>,
    },
    Char(u32),
    Str(String),
    /// An operator symbol other than the reserved `=` and `->`.
    Symbol(String),
    /// `#name`
    Constr(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    /// `:>`
    ColonGt,
    Dot,
    /// `..`
    DotDot,
    /// `...`
    DotDotDot,
    /// `..<`
    DotDotLt,
    /// `..>`
    DotDotGt,
    Equals,
    Arrow,
    Backslash,
    Backtick,
    /// `#[`
    HashBracket,
    /// `'`
    Tick,
    /// `'~`
    TickTilde,
    /// `'^`
    TickHat,
    Tilde,
    Question,
    /// `???`
    Hole,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Whitespace, a comment or the start of the file precedes the token.
    pub space_before: bool,
}

/// The lexer's result: the tokens (ending with [`Tok::Eof`]) and doc
/// comments keyed by the index of the token they precede.
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub docs: HashMap<usize, String>,
}

fn is_symchar(c: u8) -> bool {
    matches!(
        c,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'=' | b'!' | b'>' | b'<' | b'|' | b'&' | b'^'
    )
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_constituent(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

struct Lexer<'a> {
    file: FileId,
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    docs: HashMap<usize, String>,
}

pub fn lex(file: FileId, src: &str) -> Result<Lexed, Diagnostic> {
    let mut lx = Lexer {
        file,
        src,
        b: src.as_bytes(),
        pos: 0,
        tokens: vec![],
        docs: HashMap::new(),
    };
    lx.run()?;
    Ok(Lexed {
        tokens: lx.tokens,
        docs: lx.docs,
    })
}

impl<'a> Lexer<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn peek(&self, off: usize) -> u8 {
        *self.b.get(self.pos + off).unwrap_or(&0)
    }

    fn err<T>(&self, start: usize, end: usize, msg: impl Into<String>) -> Result<T, Diagnostic> {
        Err(Diagnostic::error(self.span(start, end), msg))
    }

    /// Skips whitespace and comments; returns whether anything was skipped.
    /// Collects a doc comment block if one is found.
    fn skip_trivia(&mut self, doc: &mut Option<String>) -> bool {
        let start = self.pos;
        loop {
            let c = self.peek(0);
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else if c == b'-' && self.peek(1) == b'-' {
                let line_start = self.pos;
                while self.pos < self.b.len() && self.b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                let line = &self.src[line_start + 2..self.pos];
                let trimmed = line.trim_start();
                if let Some(rest) = trimmed.strip_prefix('|') {
                    // A new doc block starts; it replaces an earlier one
                    // that was not followed by a declaration.
                    *doc = Some(
                        rest.strip_prefix(' ')
                            .unwrap_or(rest)
                            .trim_end()
                            .to_string(),
                    );
                } else if let Some(d) = doc.as_mut() {
                    d.push('\n');
                    d.push_str(line.strip_prefix(' ').unwrap_or(line).trim_end());
                }
            } else {
                break;
            }
        }
        self.pos > start
    }

    fn run(&mut self) -> Result<(), Diagnostic> {
        let mut doc = None;
        loop {
            // A doc block survives only until the next non-comment token.
            let space = self.skip_trivia(&mut doc) || self.pos == 0;
            if let Some(d) = doc.take() {
                self.docs.insert(self.tokens.len(), d);
            }
            let start = self.pos;
            if self.pos >= self.b.len() {
                self.tokens.push(Token {
                    tok: Tok::Eof,
                    span: self.span(start, start),
                    space_before: true,
                });
                return Ok(());
            }
            let tok = self.token()?;
            self.tokens.push(Token {
                tok,
                span: self.span(start, self.pos),
                space_before: space,
            });
        }
    }

    /// Whether a number here must be read as a field index (`t.0.1`).
    fn after_projection_dot(&self) -> bool {
        matches!(self.tokens.last(), Some(Token { tok: Tok::Dot, span, .. })
            if span.end as usize == self.pos)
    }

    fn token(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let c = self.peek(0);
        let simple = |n: usize, t: Tok, lx: &mut Lexer| {
            lx.pos += n;
            Ok(t)
        };
        match c {
            b'(' => simple(1, Tok::LParen, self),
            b')' => simple(1, Tok::RParen, self),
            b'[' => simple(1, Tok::LBracket, self),
            b']' => simple(1, Tok::RBracket, self),
            b'{' => simple(1, Tok::LBrace, self),
            b'}' => simple(1, Tok::RBrace, self),
            b',' => simple(1, Tok::Comma, self),
            b'\\' => simple(1, Tok::Backslash, self),
            b'`' => simple(1, Tok::Backtick, self),
            b'~' => simple(1, Tok::Tilde, self),
            b':' if self.peek(1) == b'>' => simple(2, Tok::ColonGt, self),
            b':' => simple(1, Tok::Colon, self),
            b'?' if self.peek(1) == b'?' && self.peek(2) == b'?' => simple(3, Tok::Hole, self),
            b'?' => simple(1, Tok::Question, self),
            b'.' => match (self.peek(1), self.peek(2)) {
                (b'.', b'.') => simple(3, Tok::DotDotDot, self),
                (b'.', b'<') => simple(3, Tok::DotDotLt, self),
                (b'.', b'>') => simple(3, Tok::DotDotGt, self),
                (b'.', _) => simple(2, Tok::DotDot, self),
                _ => simple(1, Tok::Dot, self),
            },
            b'#' if self.peek(1) == b'[' => simple(2, Tok::HashBracket, self),
            b'#' if is_ident_start(self.peek(1)) => {
                self.pos += 1;
                let name = self.ident_text();
                Ok(Tok::Constr(name.to_string()))
            }
            b'\'' => self.tick_or_char(),
            b'"' => self.string(),
            _ if c.is_ascii_digit() => {
                if self.after_projection_dot() {
                    while self.peek(0).is_ascii_digit() {
                        self.pos += 1;
                    }
                    let text = &self.src[start..self.pos];
                    match text.parse::<u128>() {
                        Ok(value) => Ok(Tok::Int {
                            value,
                            suffix: None,
                        }),
                        Err(_) => self.err(start, self.pos, "field index too large"),
                    }
                } else {
                    self.number()
                }
            }
            _ if is_ident_start(c) => {
                let name = self.ident_text();
                Ok(match Kw::from_str(name) {
                    Some(k) => Tok::Kw(k),
                    None => Tok::Ident(name.to_string()),
                })
            }
            _ if is_symchar(c) => {
                while is_symchar(self.peek(0)) || self.peek(0) == b'.' {
                    // Stop before a range operator glued to a symbol.
                    if self.peek(0) == b'.' && self.peek(1) == b'.' {
                        break;
                    }
                    self.pos += 1;
                }
                let s = &self.src[start..self.pos];
                Ok(match s {
                    "=" => Tok::Equals,
                    "->" => Tok::Arrow,
                    _ => Tok::Symbol(s.to_string()),
                })
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                self.err(
                    start,
                    start + ch.len_utf8(),
                    format!("invalid character '{ch}'"),
                )
            }
        }
    }

    fn ident_text(&mut self) -> &'a str {
        let start = self.pos;
        while is_constituent(self.peek(0)) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    fn tick_or_char(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        // A character literal is `'c'` or `'\...'`.
        let rest = &self.src[start + 1..];
        let mut chars = rest.chars();
        match chars.next() {
            Some('\\') => {
                self.pos += 2;
                let c = self.escape(start)?;
                if self.peek(0) != b'\'' {
                    return self.err(start, self.pos, "unterminated character literal");
                }
                self.pos += 1;
                return Ok(Tok::Char(c));
            }
            Some(c) if c != '\'' && c != '\n' && chars.next() == Some('\'') => {
                self.pos += 1 + c.len_utf8() + 1;
                return Ok(Tok::Char(c as u32));
            }
            _ => {}
        }
        self.pos += 1;
        match self.peek(0) {
            b'~' => {
                self.pos += 1;
                Ok(Tok::TickTilde)
            }
            b'^' => {
                self.pos += 1;
                Ok(Tok::TickHat)
            }
            _ => Ok(Tok::Tick),
        }
    }

    /// Reads an escape sequence after its backslash; `lit_start` locates errors.
    fn escape(&mut self, lit_start: usize) -> Result<u32, Diagnostic> {
        let esc_start = self.pos - 1;
        let c = self.peek(0);
        self.pos += 1;
        let hex = |lx: &mut Lexer, n: usize| -> Result<u32, Diagnostic> {
            let digits = lx.src.get(lx.pos..lx.pos + n).unwrap_or("");
            match u32::from_str_radix(digits, 16) {
                Ok(v) if digits.len() == n && digits.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    lx.pos += n;
                    Ok(v)
                }
                _ => lx.err(esc_start, lx.pos, "invalid escape sequence"),
            }
        };
        let v = match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'0' => 0,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' => 92,
            b'\'' => 39,
            b'"' => 34,
            b'x' => hex(self, 2)?,
            b'u' => hex(self, 4)?,
            b'U' => hex(self, 8)?,
            0 => return self.err(lit_start, self.pos - 1, "unterminated literal"),
            _ => return self.err(esc_start, self.pos, "invalid escape sequence"),
        };
        if char::from_u32(v).is_none() {
            return self.err(esc_start, self.pos, "escape is not a Unicode scalar value");
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        self.pos += 1;
        let mut s = String::new();
        loop {
            let rest = &self.src[self.pos..];
            match rest.chars().next() {
                None | Some('\n') => {
                    return self.err(start, self.pos, "unterminated string literal");
                }
                Some('"') => {
                    self.pos += 1;
                    return Ok(Tok::Str(s));
                }
                Some('\\') => {
                    self.pos += 1;
                    let v = self.escape(start)?;
                    s.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                }
                Some(c) => {
                    s.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// Reads digits of the given radix and `_` separators.
    fn digits(&mut self, radix: u32) -> &'a str {
        let start = self.pos;
        while (self.peek(0) as char).is_digit(radix) || (self.peek(0) == b'_' && self.pos > start) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    fn number(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let c1 = self.peek(1);
        let radix = if self.peek(0) == b'0' && (c1 == b'x' || c1 == b'X') {
            16
        } else if self.peek(0) == b'0' && (c1 == b'b' || c1 == b'B') {
            2
        } else {
            10
        };
        if radix != 10 {
            self.pos += 2;
        }
        let int_part = self.digits(radix).replace('_', "");
        if int_part.is_empty() {
            return self.err(start, self.pos, "invalid numeric literal");
        }
        let mut is_float = false;
        let mut frac = String::new();
        if self.peek(0) == b'.' && (self.peek(1) as char).is_digit(radix) && radix != 2 {
            self.pos += 1;
            frac = self.digits(radix).replace('_', "");
            is_float = true;
        }
        let mut exp: Option<i32> = None;
        let exp_char = |c: u8| {
            if radix == 16 {
                c == b'p' || c == b'P'
            } else {
                c == b'e' || c == b'E'
            }
        };
        if radix != 2 && exp_char(self.peek(0)) && (radix == 10 || is_float) {
            let save = self.pos;
            self.pos += 1;
            let neg = self.peek(0) == b'-';
            if self.peek(0) == b'-' || self.peek(0) == b'+' {
                self.pos += 1;
            }
            let ds = self.digits(10).replace('_', "");
            if ds.is_empty() {
                self.pos = save;
            } else {
                let v: i32 = ds.parse().unwrap_or(i32::MAX);
                exp = Some(if neg { -v } else { v });
                is_float = true;
            }
        }
        if radix == 16 && is_float && exp.is_none() {
            return self.err(
                start,
                self.pos,
                "hexadecimal float literal needs an exponent 'p'",
            );
        }
        // The suffix.
        let suf_start = self.pos;
        let suffix = self.ident_text();
        let end = self.pos;
        if is_float {
            let value = if radix == 16 {
                hex_float(&int_part, &frac, exp.unwrap_or(0))
            } else {
                let text = format!(
                    "{int_part}.{}e{}",
                    if frac.is_empty() { "0" } else { &frac },
                    exp.unwrap_or(0)
                );
                text.parse::<f64>().unwrap_or(f64::INFINITY)
            };
            let suffix = match suffix {
                "" => None,
                "f16" => Some(FloatType::F16),
                "f32" => Some(FloatType::F32),
                "f64" => Some(FloatType::F64),
                _ => {
                    return self.err(
                        suf_start,
                        end,
                        format!("invalid float literal suffix '{suffix}'"),
                    )
                }
            };
            return Ok(Tok::Float { value, suffix });
        }
        let value = match u128::from_str_radix(&int_part, radix) {
            Ok(v) => v,
            Err(_) => return self.err(start, suf_start, "integer literal is too large"),
        };
        let suffix = match suffix {
            "" => None,
            "i8" => Some(IntSuffix::Int(IntType::I8)),
            "i16" => Some(IntSuffix::Int(IntType::I16)),
            "i32" => Some(IntSuffix::Int(IntType::I32)),
            "i64" => Some(IntSuffix::Int(IntType::I64)),
            "u8" => Some(IntSuffix::Int(IntType::U8)),
            "u16" => Some(IntSuffix::Int(IntType::U16)),
            "u32" => Some(IntSuffix::Int(IntType::U32)),
            "u64" => Some(IntSuffix::Int(IntType::U64)),
            "f16" => Some(IntSuffix::Float(FloatType::F16)),
            "f32" => Some(IntSuffix::Float(FloatType::F32)),
            "f64" => Some(IntSuffix::Float(FloatType::F64)),
            _ => {
                return self.err(
                    suf_start,
                    end,
                    format!("invalid integer literal suffix '{suffix}'"),
                )
            }
        };
        Ok(Tok::Int { value, suffix })
    }
}

/// The value of `0x<int>.<frac>p<exp>`.
fn hex_float(int: &str, frac: &str, exp: i32) -> f64 {
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + c.to_digit(16).unwrap_or(0) as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += c.to_digit(16).unwrap_or(0) as f64 * scale;
        scale /= 16.0;
    }
    v * 2f64.powi(exp)
}

/// Source text of a token, for error messages.
pub fn describe(tok: &Token, src: &str) -> String {
    let text = src.get(tok.span.range()).unwrap_or("?");
    match tok.tok {
        Tok::Eof => "end of file".to_string(),
        // Keywords are named by themselves, as Futhark's parser names them.
        Tok::Kw(_) => format!("\"{text}\""),
        _ => format!("token: '{text}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        lex(FileId(0), src)
            .unwrap()
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    fn sym(s: &str) -> Tok {
        Tok::Symbol(s.to_string())
    }

    fn id(s: &str) -> Tok {
        Tok::Ident(s.to_string())
    }

    fn int(v: u128) -> Tok {
        Tok::Int {
            value: v,
            suffix: None,
        }
    }

    #[test]
    fn projections_are_not_floats() {
        assert_eq!(
            toks("t.0.1"),
            vec![id("t"), Tok::Dot, int(0), Tok::Dot, int(1), Tok::Eof]
        );
        assert_eq!(
            toks("1.5"),
            vec![
                Tok::Float {
                    value: 1.5,
                    suffix: None
                },
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("(.0)"),
            vec![Tok::LParen, Tok::Dot, int(0), Tok::RParen, Tok::Eof]
        );
    }

    #[test]
    fn ranges_and_operators() {
        assert_eq!(
            toks("1..<n"),
            vec![int(1), Tok::DotDotLt, id("n"), Tok::Eof]
        );
        assert_eq!(
            toks("a..b...c"),
            vec![
                id("a"),
                Tok::DotDot,
                id("b"),
                Tok::DotDotDot,
                id("c"),
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("x..>y"),
            vec![id("x"), Tok::DotDotGt, id("y"), Tok::Eof]
        );
        assert_eq!(
            toks("a >>= b"),
            vec![id("a"), sym(">>="), id("b"), Tok::Eof]
        );
        assert_eq!(
            toks("= -> |>"),
            vec![Tok::Equals, Tok::Arrow, sym("|>"), Tok::Eof]
        );
        assert_eq!(
            toks("x :> t"),
            vec![id("x"), Tok::ColonGt, id("t"), Tok::Eof]
        );
        assert_eq!(
            toks("a[::-1]")[2..6],
            [Tok::Colon, Tok::Colon, sym("-"), int(1)]
        );
    }

    #[test]
    fn ticks_chars_constructors() {
        assert_eq!(
            toks("'a 'x'"),
            vec![Tok::Tick, id("a"), Tok::Char('x' as u32), Tok::Eof]
        );
        assert_eq!(
            toks("'~a '^b"),
            vec![Tok::TickTilde, id("a"), Tok::TickHat, id("b"), Tok::Eof]
        );
        assert_eq!(toks("x'"), vec![id("x'"), Tok::Eof]);
        assert_eq!(
            toks("#foo #[x]")[..2],
            [Tok::Constr("foo".into()), Tok::HashBracket]
        );
        assert_eq!(toks("??? ?"), vec![Tok::Hole, Tok::Question, Tok::Eof]);
        assert_eq!(
            toks(r#""a\tb\u00e9""#),
            vec![Tok::Str("a\tb\u{e9}".into()), Tok::Eof]
        );
    }

    #[test]
    fn numbers_with_suffixes() {
        let s = |v, t| Tok::Int {
            value: v,
            suffix: Some(IntSuffix::Int(t)),
        };
        assert_eq!(
            toks("1i8 0xFFu16 0b11u64"),
            vec![
                s(1, IntType::I8),
                s(255, IntType::U16),
                s(3, IntType::U64),
                Tok::Eof
            ]
        );
        assert_eq!(toks("1_000_000"), vec![int(1_000_000), Tok::Eof]);
        assert_eq!(
            toks("2f64"),
            vec![
                Tok::Int {
                    value: 2,
                    suffix: Some(IntSuffix::Float(FloatType::F64))
                },
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("1.5e2f16"),
            vec![
                Tok::Float {
                    value: 150.0,
                    suffix: Some(FloatType::F16)
                },
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("0x1.8p1"),
            vec![
                Tok::Float {
                    value: 3.0,
                    suffix: None
                },
                Tok::Eof
            ]
        );
    }

    #[test]
    fn spacing_and_docs() {
        let l = lex(FileId(0), "a[i] f [i]\n-- | doc one\n--   two\ndef").unwrap();
        let spaces: Vec<bool> = l.tokens.iter().map(|t| t.space_before).collect();
        assert_eq!(
            spaces,
            vec![true, false, false, false, true, true, false, false, true, true]
        );
        assert_eq!(l.docs.get(&8).map(String::as_str), Some("doc one\n  two"));
        assert_eq!(l.docs.len(), 1);
    }
}
