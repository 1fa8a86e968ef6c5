//! Reads the printed core IR back (DESIGN §1: "the printed core IR can
//! be read back"), so that programs can be saved at any stage and fed
//! back, and passes can be tested as IR text in, IR text out.
//!
//! The printer ([`crate::pretty`]) defines the format; this reader
//! accepts what it writes, with any layout: whitespace and line breaks
//! are insignificant, and `--` starts a comment that runs to the end of
//! the line. Names keep their ids (`xs_12` is base `xs`, id 12: the id
//! follows the last `_`), and [`Program::names`] continues past the
//! largest id read. What the text does not hold is left empty: source
//! spans (statements and functions get [`Span::default`]) and NaN
//! payloads. The reader checks the syntax only; run
//! [`crate::check_program`] on the result to check names and types.
//!
//! Grammar (`x,*` is a comma-separated list, possibly empty; `⟨x⟩` is
//! one `x`, or `(x,*)` for any other number):
//!
//! ```text
//! program ::= (entry | fun)*
//! entry   ::= "entry" STRING "=" NAME ":" "(" etype,* ")" "->" ⟨etype⟩
//! etype   ::= "*"? ("[" "]")* prim
//! fun     ::= "fun" NAME "(" param,* ")" ":" ⟨type⟩ body
//! body    ::= "{" stm* "in" ⟨operand⟩ "}"
//! stm     ::= ("#" "[" attr "]")* "let" ⟨param⟩ "=" exp
//! attr    ::= NAME | NAME "(" attr,* ")" | INT
//! param   ::= var ":" type
//! type    ::= dim* prim | "acc" "(" dim* "," ⟨type⟩ ")"
//! dim     ::= "[" (INT | var | "?") "]"
//! lambda  ::= "\" "(" param,* ")" ":" ⟨type⟩ body
//! operand ::= var | NUM SUFFIX | "true" | "false"
//!           | "-"? ("f16" | "f32" | "f64") "." ("inf" | "nan")
//! var     ::= NAME "_" DIGITS
//! index   ::= operand | operand ":" "+" operand "*" operand   (start, length, stride)
//! ops     ::= "[" operand,* "]"        vars ::= "[" var,* "]"
//! exp     ::= operand | var "[" index,* "]" | var "with" "[" index,* "]" "=" operand
//!           | UNOP "." prim "(" operand ")" | BINOP "." prim "(" operand "," operand ")"
//!           | CMPOP "." prim "(" operand "," operand ")"
//!           | TERNOP "." prim "(" operand "," operand "," operand ")"
//!           | CONVOP "." prim "." prim "(" operand ")"
//!           | "reshape" "(" ops "," var ")" | "flatten" "(" var ")"
//!           | "unflatten" "(" operand "," operand "," var ")"
//!           | "rearrange" "(" "[" INT,* "]" "," var ")"
//!           | "iota" "." prim "(" operand "," operand "," operand ")"
//!           | "replicate" "(" operand "," operand ")" | "scratch" "." prim "(" ops ")"
//!           | "concat" "(" var,* ")" | "copy" "(" var ")" | "reverse" "(" var ")"
//!           | "rotate" "(" operand "," var ")" | "size" "(" var "," INT ")"
//!           | "assert" "(" operand "," STRING ("," ops)? ")"
//!           | "upd" "(" var "," ops "," ops ")" | "apply" NAME "(" operand,* ")"
//!           | "if" operand ":" ⟨type⟩ "then" body "else" body
//!           | "loop" "(" (param "=" operand),* ")" form body
//!           | "map" "(" operand "," vars "," lambda ")"
//!           | ("reduce" | "reduce_comm" | "scan") "(" operand "," vars "," ops "," lambda ")"
//!           | "hist" "(" operand "," vars "," vars "," vars "," ops "," lambda ")"
//!           | "scatter" "(" operand "," (var vars "<-" var),* ")"
//!           | "withacc" "(" (accin ",")* lambda ")"
//!           | "screma" "(" operand "," vars "," (redop ",")* lambda ")"
//!           | ("jvp" | "vjp") "(" lambda "," ops "," ops ")"
//!           | "with_vjp" "(" lambda "," lambda "," ops ")"
//! form    ::= "for" var ":" prim "<" operand | "while" var
//! accin   ::= "{" ops "," vars ("," ops "," lambda)? "}"
//! redop   ::= ("scan" | "reduce" | "reduce_comm") "(" ops "," lambda ")"
//! ```
//!
//! Numbers carry their type as a suffix (`3i8`, `1.5f32`, `-0.0f64`);
//! unsuffixed integers are dimensions, positions and attributes. Strings
//! use Rust's escapes (`\"`, `\\`, `\n`, `\u{…}`).

mod exp;
mod lex;

use crate::ir::*;
use crate::names::{NameSource, Symbol, VName};
use crate::types::{AccType, Dim, Type};
use lex::{Tok, Token};
use parad_base::Scalar;
use parad_base::{FileId, FloatType, IntType, PrimType, Span};
use std::fmt;

/// Malformed IR text, located at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

type R<T> = Result<T, ParseError>;

/// Reads a whole program: entry points and functions, in any order.
pub fn parse_program(text: &str) -> R<Program> {
    Parser::whole(text, None, Parser::program)
}

/// [`parse_program`] for the text of `file`: each statement's span is its
/// place in that text, so run-time errors point into the printed IR.
pub fn parse_program_in(text: &str, file: FileId) -> R<Program> {
    Parser::whole(text, Some(file), Parser::program)
}

/// Reads one function, as `Display for FunDef` writes it.
pub fn parse_fun(text: &str) -> R<FunDef> {
    Parser::whole(text, None, Parser::fun)
}

/// Reads a body in braces, as `Display for Body` writes it.
pub fn parse_body(text: &str) -> R<Body> {
    Parser::whole(text, None, Parser::body)
}

/// Reads a lambda, as `Display for Lambda` writes it.
pub fn parse_lambda(text: &str) -> R<Lambda> {
    Parser::whole(text, None, Parser::lambda)
}

/// Reads a type such as `[n_3][4]f32` or `acc([n_1], f32)`.
pub fn parse_type(text: &str) -> R<Type> {
    Parser::whole(text, None, Parser::ty)
}

/// Nesting deeper than this (bodies in bodies, types in types) is an
/// error rather than a stack overflow. Strip-mined loops nest deeply
/// (`#[stripmine(k)]` gives `k` levels), so the limit is generous.
const MAX_DEPTH: usize = 4000;

/// The reader's stack: enough for `MAX_DEPTH` levels in a debug build
/// (a few KiB each). Only the pages used are ever touched.
const STACK: usize = 256 << 20;

struct Parser {
    /// Never empty: the last token is `Eof`.
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    max_id: Option<u32>,
    /// The file statements' spans point into, if any.
    file: Option<FileId>,
}

impl Parser {
    /// Runs `f` on the whole of `text`, on a thread with a stack of its
    /// own (so that how deep a text may nest does not depend on the
    /// caller's stack).
    fn whole<T: Send>(
        text: &str,
        file: Option<FileId>,
        f: impl FnOnce(&mut Parser) -> R<T> + Send,
    ) -> R<T> {
        let run = || {
            let mut p = Parser {
                toks: lex::lex(text)?,
                pos: 0,
                depth: 0,
                max_id: None,
                file,
            };
            let x = f(&mut p)?;
            if p.peek() != &Tok::Eof {
                return Err(p.expected("end of input"));
            }
            Ok(x)
        };
        std::thread::scope(|s| {
            let thread = std::thread::Builder::new()
                .name("ir reader".into())
                .stack_size(STACK)
                .spawn_scoped(s, run)
                .map_err(|e| ParseError {
                    line: 1,
                    col: 1,
                    message: format!("cannot start the reader's thread: {e}"),
                })?;
            thread
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
    }

    // Tokens.

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn advance(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// An error at the next token.
    fn error(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        let t = &self.toks[pos];
        ParseError {
            line: t.line,
            col: t.col,
            message: message.into(),
        }
    }

    fn expected(&self, what: &str) -> ParseError {
        self.error(format!("expected {what}, found {}", self.peek()))
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(t) if *t == s)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.advance();
        }
        yes
    }

    fn sym(&mut self, s: &str) -> R<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{s}`")))
        }
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(t) if t == k)
    }

    fn kw(&mut self, k: &str) -> R<()> {
        if self.is_kw(k) {
            self.advance();
            Ok(())
        } else {
            Err(self.expected(&format!("`{k}`")))
        }
    }

    fn ident(&mut self, what: &str) -> R<String> {
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn string(&mut self) -> R<String> {
        match self.peek() {
            Tok::Str(s) => {
                let s = s.clone();
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected("a string")),
        }
    }

    /// An integer without a type suffix.
    fn int<T: std::str::FromStr>(&mut self, what: &str) -> R<T> {
        match self.peek() {
            Tok::Num(s) => {
                let x = s
                    .parse()
                    .map_err(|_| self.error(format!("bad {what} `{s}`")))?;
                self.advance();
                Ok(x)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// `open item,* close`.
    fn list<T>(
        &mut self,
        open: &str,
        close: &str,
        mut item: impl FnMut(&mut Parser) -> R<T>,
    ) -> R<Vec<T>> {
        self.sym(open)?;
        let mut xs = vec![];
        if self.eat_sym(close) {
            return Ok(xs);
        }
        loop {
            xs.push(item(self)?);
            if self.eat_sym(close) {
                return Ok(xs);
            }
            if !self.eat_sym(",") {
                return Err(self.expected(&format!("`,` or `{close}`")));
            }
        }
    }

    /// One item, or a parenthesised list of any other number.
    fn tuple<T>(&mut self, mut item: impl FnMut(&mut Parser) -> R<T>) -> R<Vec<T>> {
        if self.is_sym("(") {
            self.list("(", ")", item)
        } else {
            Ok(vec![item(self)?])
        }
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> R<T>) -> R<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.depth += 1;
        let x = f(self);
        self.depth -= 1;
        x
    }

    // Programs and functions.

    fn program(&mut self) -> R<Program> {
        let mut prog = Program::default();
        loop {
            match self.peek() {
                Tok::Ident(k) if k == "entry" => prog.entries.push(self.entry()?),
                Tok::Ident(k) if k == "fun" => prog.funs.push(self.fun()?),
                Tok::Eof => break,
                _ => return Err(self.expected("`entry` or `fun`")),
            }
        }
        if let Some(m) = self.max_id {
            prog.names = NameSource::starting_at(m + 1);
        }
        Ok(prog)
    }

    fn entry(&mut self) -> R<EntryPoint> {
        self.kw("entry")?;
        let name = self.string()?;
        self.sym("=")?;
        let fun = Symbol::intern(&self.ident("a function name")?);
        self.sym(":")?;
        let params = self.list("(", ")", Parser::entry_type)?;
        self.sym("->")?;
        let results = self.tuple(Parser::entry_type)?;
        Ok(EntryPoint {
            name,
            fun,
            params,
            results,
        })
    }

    fn entry_type(&mut self) -> R<EntryType> {
        let unique = self.eat_sym("*");
        let mut rank = 0;
        while self.eat_sym("[") {
            self.sym("]")?;
            rank += 1;
        }
        let elem = self.prim()?;
        Ok(EntryType { elem, rank, unique })
    }

    fn fun(&mut self) -> R<FunDef> {
        self.kw("fun")?;
        let name = Symbol::intern(&self.ident("a function name")?);
        let params = self.list("(", ")", Parser::param)?;
        self.sym(":")?;
        let ret = self.tuple(Parser::ty)?;
        let body = self.body()?;
        Ok(FunDef {
            name,
            params,
            ret,
            body,
            span: Span::default(),
        })
    }

    fn body(&mut self) -> R<Body> {
        self.nested(|p| {
            p.sym("{")?;
            let mut stms = vec![];
            while !p.is_kw("in") {
                if p.peek() == &Tok::Eof || p.is_sym("}") {
                    return Err(p.expected("`let` or `in`"));
                }
                stms.push(p.stm()?);
            }
            p.kw("in")?;
            let result = p.tuple(Parser::operand)?;
            p.sym("}")?;
            Ok(Body { stms, result })
        })
    }

    /// The span of tokens `from..=last`.
    fn span(&self, from: usize, last: usize) -> Span {
        match self.file {
            Some(file) => {
                let (start, end) = (self.toks[from].start, self.toks[last].end);
                Span::new(file, start as usize, end.max(start) as usize)
            }
            None => Span::default(),
        }
    }

    fn stm(&mut self) -> R<Stm> {
        let from = self.pos;
        let mut attrs = vec![];
        while self.eat_sym("#") {
            self.sym("[")?;
            attrs.push(self.attr()?);
            self.sym("]")?;
        }
        self.kw("let")?;
        let pat = self.tuple(Parser::param)?;
        self.sym("=")?;
        // A statement is located by its head, `let pat = op`, not by the
        // bodies an operation may span.
        let span = self.span(from, self.pos);
        let exp = self.exp()?;
        Ok(Stm {
            pat,
            exp,
            span,
            attrs,
        })
    }

    fn attr(&mut self) -> R<Attr> {
        self.nested(|p| {
            if let Tok::Num(_) = p.peek() {
                return Ok(Attr::Int(p.int("an integer")?));
            }
            let name = p.ident("an attribute")?;
            if p.is_sym("(") {
                Ok(Attr::Call(name, p.list("(", ")", Parser::attr)?))
            } else {
                Ok(Attr::Name(name))
            }
        })
    }

    fn lambda(&mut self) -> R<Lambda> {
        self.sym("\\")?;
        let params = self.list("(", ")", Parser::param)?;
        self.sym(":")?;
        let ret = self.tuple(Parser::ty)?;
        let body = self.body()?;
        Ok(Lambda { params, ret, body })
    }

    // Names, types and operands.

    fn var(&mut self) -> R<VName> {
        let Tok::Ident(s) = self.peek() else {
            return Err(self.expected("a variable"));
        };
        let v = match var_parts(s) {
            Some((base, id)) => {
                let id: u32 = id
                    .parse()
                    .ok()
                    .filter(|&id| id < u32::MAX)
                    .ok_or_else(|| self.error(format!("name id too large in `{s}`")))?;
                VName {
                    base: Symbol::intern(base),
                    id,
                }
            }
            _ => return Err(self.error(format!("expected a variable (`base_id`), found `{s}`"))),
        };
        self.advance();
        self.max_id = self.max_id.max(Some(v.id));
        Ok(v)
    }

    fn param(&mut self) -> R<Param> {
        let name = self.var()?;
        self.sym(":")?;
        let ty = self.ty()?;
        Ok(Param { name, ty })
    }

    fn prim(&mut self) -> R<PrimType> {
        match self.peek() {
            Tok::Ident(s) => {
                let t = PrimType::from_name(s).ok_or_else(|| self.expected("a primitive type"))?;
                self.advance();
                Ok(t)
            }
            _ => Err(self.expected("a primitive type")),
        }
    }

    fn int_type(&mut self) -> R<IntType> {
        match self.prim()? {
            PrimType::Int(t) => Ok(t),
            t => Err(self.error_at(
                self.pos - 1,
                format!("expected an integer type, found `{t}`"),
            )),
        }
    }

    fn ty(&mut self) -> R<Type> {
        self.nested(|p| {
            if p.is_kw("acc") {
                p.advance();
                p.sym("(")?;
                let ispace = p.dims()?;
                p.sym(",")?;
                let elems = p.tuple(Parser::ty)?;
                p.sym(")")?;
                return Ok(Type::Acc(AccType { ispace, elems }));
            }
            let shape = p.dims()?;
            Ok(Type::array(p.prim()?, shape))
        })
    }

    fn dims(&mut self) -> R<Vec<Dim>> {
        let mut dims = vec![];
        while self.eat_sym("[") {
            let d = match self.peek() {
                Tok::Sym("?") => {
                    self.advance();
                    Dim::Ext
                }
                Tok::Num(_) => Dim::Const(self.int("a dimension")?),
                _ => Dim::Var(self.var()?),
            };
            dims.push(d);
            self.sym("]")?;
        }
        Ok(dims)
    }

    fn operand(&mut self) -> R<Operand> {
        let c = match self.peek().clone() {
            Tok::Num(s) => {
                let c = number(&s).map_err(|m| self.error(m))?;
                self.advance();
                c
            }
            Tok::Ident(s) if s == "true" || s == "false" => {
                self.advance();
                Scalar::Bool(s == "true")
            }
            Tok::Ident(s) if float_type(&s).is_some() => self.special_float(false)?,
            Tok::Sym("-") if matches!(self.peek_at(1), Tok::Ident(s) if float_type(s).is_some()) => {
                self.advance();
                self.special_float(true)?
            }
            Tok::Ident(_) => return Ok(Operand::Var(self.var()?)),
            _ => return Err(self.expected("an operand")),
        };
        Ok(Operand::Const(c))
    }

    /// `f32.inf`, `f64.nan` (the `-` already read if `neg`).
    fn special_float(&mut self, neg: bool) -> R<Scalar> {
        let t = float_type(&self.ident("a float type")?).expect("checked by the caller");
        self.sym(".")?;
        let at = self.pos;
        let x = match self.ident("`inf` or `nan`")?.as_str() {
            "inf" if neg => f64::NEG_INFINITY,
            "inf" => f64::INFINITY,
            "nan" if !neg => f64::NAN,
            w => return Err(self.error_at(at, format!("expected `inf` or `nan`, found `{w}`"))),
        };
        Ok(Scalar::from_float(t, x))
    }
}

/// The base and the digits of the id of a variable name `base_id`.
fn var_parts(s: &str) -> Option<(&str, &str)> {
    s.rsplit_once('_')
        .filter(|(_, id)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

fn float_type(s: &str) -> Option<FloatType> {
    match PrimType::from_name(s)? {
        PrimType::Float(t) => Some(t),
        _ => None,
    }
}

/// A typed constant such as `-3i8`, `255u8` or `1.5e-7f32`.
fn number(s: &str) -> Result<Scalar, String> {
    let split = s
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .ok_or_else(|| format!("`{s}` needs a type suffix (e.g. `{s}i64`)"))?;
    let (digits, suffix) = s.split_at(split);
    let t = PrimType::from_name(suffix)
        .filter(|t| *t != PrimType::Bool)
        .ok_or_else(|| format!("unknown type suffix `{suffix}` in `{s}`"))?;
    match t {
        PrimType::Int(t) => {
            let v: i128 = digits
                .parse()
                .map_err(|_| format!("malformed integer `{s}`"))?;
            let bits = t.bits();
            let (lo, hi) = if t.signed() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < lo || v > hi {
                return Err(format!("`{s}` is out of range for {t}"));
            }
            Ok(Scalar::from_int(t, v))
        }
        // Parsed at the type's own precision (no double rounding).
        PrimType::Float(FloatType::F32) => digits
            .parse()
            .map(Scalar::F32)
            .map_err(|_| format!("malformed number `{s}`")),
        PrimType::Float(t) => digits
            .parse()
            .map(|x| Scalar::from_float(t, x))
            .map_err(|_| format!("malformed number `{s}`")),
        PrimType::Bool => unreachable!("filtered above"),
    }
}
