//! Tokens of the IR text. Layout is insignificant, so the lexer drops
//! whitespace and `--` comments and keeps each token's line and column
//! for error messages.

use super::ParseError;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// A name or keyword: `[A-Za-z_][A-Za-z0-9_']*`.
    Ident(String),
    /// A number as written, sign and type suffix included: `4`, `-3i8`,
    /// `1.5e-7f32`.
    Num(String),
    /// A string literal, escapes decoded.
    Str(String),
    /// Punctuation, including `->` and `<-`.
    Sym(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Num(s) => write!(f, "`{s}`"),
            Tok::Str(s) => write!(f, "string {s:?}"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => f.write_str("end of input"),
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
    /// Byte offsets of the token in the text (for source spans).
    pub start: u32,
    pub end: u32,
}

/// Two-character symbols first.
const SYMS: &[&str] = &[
    "->", "<-", "(", ")", "[", "]", "{", "}", ",", ":", "=", ".", "+", "*", "<", ">", "\\", "#",
    "?", "-",
];

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
    /// Byte offset of `chars[i]`.
    byte: u32,
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.at(0)?;
        self.i += 1;
        self.byte += c.len_utf8() as u32;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error(&self, line: u32, col: u32, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }

    fn digit_at(&self, k: usize) -> bool {
        self.at(k).is_some_and(|c| c.is_ascii_digit())
    }

    fn take_while(&mut self, out: &mut String, f: impl Fn(char) -> bool) {
        while let Some(c) = self.at(0).filter(|&c| f(c)) {
            out.push(c);
            self.bump();
        }
    }

    /// `-`? digits (`.` digits)? (`e` `-`? digits)? suffix?
    fn number(&mut self) -> Tok {
        let mut s = String::new();
        if self.at(0) == Some('-') {
            s.push('-');
            self.bump();
        }
        self.take_while(&mut s, |c| c.is_ascii_digit());
        if self.at(0) == Some('.') && self.digit_at(1) {
            s.push('.');
            self.bump();
            self.take_while(&mut s, |c| c.is_ascii_digit());
        }
        if matches!(self.at(0), Some('e' | 'E'))
            && (self.digit_at(1) || matches!(self.at(1), Some('+' | '-')) && self.digit_at(2))
        {
            for _ in 0..2 {
                s.push(self.bump().unwrap_or_default());
            }
            self.take_while(&mut s, |c| c.is_ascii_digit());
        }
        self.take_while(&mut s, |c| c.is_ascii_alphanumeric());
        Tok::Num(s)
    }

    /// A string literal with Rust's `{:?}` escapes.
    fn string(&mut self) -> Result<Tok, ParseError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let mut s = String::new();
        loop {
            let (eline, ecol) = (self.line, self.col);
            match self.bump() {
                None => return Err(self.error(line, col, "unterminated string")),
                Some('"') => return Ok(Tok::Str(s)),
                Some('\\') => {
                    let c = match self.bump() {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('r') => '\r',
                        Some('0') => '\0',
                        Some(c @ ('\\' | '"' | '\'')) => c,
                        Some('u') => self.unicode_escape(eline, ecol)?,
                        _ => return Err(self.error(eline, ecol, "unknown escape in string")),
                    };
                    s.push(c);
                }
                Some(c) => s.push(c),
            }
        }
    }

    /// The rest of `\u{XXXX}`.
    fn unicode_escape(&mut self, line: u32, col: u32) -> Result<char, ParseError> {
        let bad = |l: &Lexer| l.error(line, col, "malformed `\\u{…}` escape");
        if self.bump() != Some('{') {
            return Err(bad(self));
        }
        let mut hex = String::new();
        self.take_while(&mut hex, |c| c.is_ascii_hexdigit());
        if self.bump() != Some('}') || hex.is_empty() || hex.len() > 6 {
            return Err(bad(self));
        }
        u32::from_str_radix(&hex, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| bad(self))
    }
}

pub(super) fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        byte: 0,
    };
    let mut toks = vec![];
    while let Some(c) = lx.at(0) {
        let (line, col, start) = (lx.line, lx.col, lx.byte);
        let tok = if c.is_whitespace() {
            lx.bump();
            continue;
        } else if c == '-' && lx.at(1) == Some('-') {
            while lx.at(0).is_some_and(|c| c != '\n') {
                lx.bump();
            }
            continue;
        } else if c.is_ascii_digit() || c == '-' && lx.digit_at(1) {
            lx.number()
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            lx.take_while(&mut s, |c| {
                c.is_ascii_alphanumeric() || c == '_' || c == '\''
            });
            Tok::Ident(s)
        } else if c == '"' {
            lx.string()?
        } else {
            let sym = SYMS
                .iter()
                .find(|s| s.chars().enumerate().all(|(k, c)| lx.at(k) == Some(c)))
                .ok_or_else(|| lx.error(line, col, format!("unexpected character {c:?}")))?;
            for _ in 0..sym.len() {
                lx.bump();
            }
            Tok::Sym(sym)
        };
        toks.push(Token {
            tok,
            line,
            col,
            start,
            end: lx.byte,
        });
    }
    toks.push(Token {
        tok: Tok::Eof,
        line: lx.line,
        col: lx.col,
        start: lx.byte,
        end: lx.byte,
    });
    Ok(toks)
}
