//! Expressions: keyword forms, infix operators by precedence climbing,
//! application by juxtaposition, atoms with indexing and projection.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Tok};
use parad_base::Span;

/// Binding strength of infix operators, loosest first. Futhark decides an
/// operator's level by its longest prefix that is a built-in operator.
const PREC_BACKTICK: u8 = 0;
const PREC_WITH: u8 = 1;
const PREC_PIPE_RIGHT: u8 = 3;

/// Precedence and right-associativity of an operator symbol.
pub(crate) fn symbol_prec(op: &str) -> (u8, bool) {
    const TWO: [(&str, u8); 13] = [
        ("|>", 2),
        ("<|", PREC_PIPE_RIGHT),
        ("||", 4),
        ("&&", 5),
        ("<=", 6),
        (">=", 6),
        ("==", 6),
        ("!=", 6),
        ("<<", 8),
        (">>", 8),
        ("//", 10),
        ("%%", 10),
        ("**", 11),
    ];
    for (p, prec) in TWO {
        if op.starts_with(p) {
            return (prec, prec == PREC_PIPE_RIGHT);
        }
    }
    let prec = match op.as_bytes().first().copied().unwrap_or(b'*') {
        b'<' | b'>' | b'!' | b'=' => 6,
        b'&' | b'^' | b'|' => 7,
        b'+' | b'-' => 9,
        _ => 10, // * / %
    };
    (prec, false)
}

/// What follows an operand in infix position.
enum Infix {
    Op(QualName, u8, bool, usize),
    With,
}

impl<'a> Parser<'a> {
    /// A full expression, including type ascriptions.
    pub(crate) fn exp(&mut self) -> PResult<Exp> {
        self.nested(|p| {
            let start = p.span();
            let mut e = p.range_exp()?;
            loop {
                if p.eat(&Tok::Colon) {
                    let t = p.type_exp()?;
                    e = p.mk(ExpKind::Ascribe(Box::new(e), t), p.span_from(start));
                } else if p.eat(&Tok::ColonGt) {
                    let t = p.type_exp()?;
                    e = p.mk(ExpKind::Coerce(Box::new(e), t), p.span_from(start));
                } else {
                    return Ok(e);
                }
            }
        })
    }

    /// An expression without a trailing type ascription (slice components).
    fn range_exp(&mut self) -> PResult<Exp> {
        let start = self.span();
        let first = self.binop(0)?;
        let mut second = None;
        if self.eat(&Tok::DotDot) {
            second = Some(Box::new(self.binop(0)?));
        }
        let kind = match self.tok() {
            Tok::DotDotDot => RangeEnd::Inclusive,
            Tok::DotDotLt => RangeEnd::UpToExclusive,
            Tok::DotDotGt => RangeEnd::DownToExclusive,
            _ if second.is_some() => return self.unexpected("'...', '..<' or '..>'"),
            _ => return Ok(first),
        };
        self.bump();
        let end = self.binop(0)?;
        Ok(self.mk(
            ExpKind::Range {
                start: Box::new(first),
                second,
                end: Box::new(end),
                kind,
            },
            self.span_from(start),
        ))
    }

    /// Number of tokens of a qualified operator `M.N.+` at the cursor.
    fn qual_op_len(&self) -> Option<usize> {
        let mut n = 0;
        loop {
            if !matches!(self.peek_at(n), Tok::Ident(_)) {
                return None;
            }
            if !(matches!(self.peek_at(n + 1), Tok::Dot) && self.adjacent_at(n + 1)) {
                return None;
            }
            if !self.adjacent_at(n + 2) {
                return None;
            }
            match self.peek_at(n + 2) {
                Tok::Symbol(_) => return Some(n + 3),
                Tok::Ident(_) => n += 2,
                _ => return None,
            }
        }
    }

    /// Reads (without consuming) the qualified operator at `pos + off`.
    fn qual_op_at(&self, len: usize) -> QualName {
        let mut quals = vec![];
        let mut i = 0;
        while i + 1 < len {
            if let Tok::Ident(s) = self.peek_at(i) {
                quals.push(s.clone());
            }
            i += 2;
        }
        let name = match self.peek_at(len - 1) {
            Tok::Symbol(s) => s.clone(),
            _ => String::new(),
        };
        let last = self.toks[(self.pos + len - 1).min(self.toks.len() - 1)].span;
        QualName {
            quals,
            name,
            span: self.span().to(last),
        }
    }

    /// A backquoted name `` `f` `` at the cursor: its name and token count.
    fn backtick_op(&self) -> Option<(QualName, usize)> {
        if !self.at(&Tok::Backtick) {
            return None;
        }
        let mut quals = vec![];
        let mut n = 1;
        loop {
            let Tok::Ident(s) = self.peek_at(n) else {
                return None;
            };
            match self.peek_at(n + 1) {
                Tok::Dot => {
                    quals.push(s.clone());
                    n += 2;
                }
                Tok::Backtick => {
                    let span = self.span().to(self.toks[self.pos + n + 1].span);
                    return Some((
                        QualName {
                            quals,
                            name: s.clone(),
                            span,
                        },
                        n + 2,
                    ));
                }
                _ => return None,
            }
        }
    }

    fn peek_infix(&self) -> Option<Infix> {
        match self.tok() {
            Tok::Symbol(s) => {
                let (prec, right) = symbol_prec(s);
                let q = QualName {
                    quals: vec![],
                    name: s.clone(),
                    span: self.span(),
                };
                Some(Infix::Op(q, prec, right, 1))
            }
            Tok::Backtick => {
                let (q, n) = self.backtick_op()?;
                Some(Infix::Op(q, PREC_BACKTICK, false, n))
            }
            Tok::Ident(_) => {
                let n = self.qual_op_len()?;
                let q = self.qual_op_at(n);
                let (prec, right) = symbol_prec(&q.name);
                Some(Infix::Op(q, prec, right, n))
            }
            Tok::Kw(Kw::With) => Some(Infix::With),
            _ => None,
        }
    }

    /// Infix operators at or above `min` binding strength.
    fn binop(&mut self, min: u8) -> PResult<Exp> {
        let start = self.span();
        let mut lhs = self.unary()?;
        loop {
            match self.peek_infix() {
                Some(Infix::With) if min <= PREC_WITH => {
                    self.bump();
                    lhs = self.update_path(lhs, true, start)?;
                }
                Some(Infix::Op(op, prec, right, n)) if prec >= min => {
                    // `(e +)` is a section: leave the operator to the caller.
                    if *self.peek_at(n) == Tok::RParen {
                        return Ok(lhs);
                    }
                    for _ in 0..n {
                        self.bump();
                    }
                    let next_min = if right { prec } else { prec + 1 };
                    let rhs = self.nested(|p| p.binop(next_min))?;
                    let span = self.span_from(start);
                    lhs = self.mk(ExpKind::BinOp(op, Box::new(lhs), Box::new(rhs)), span);
                }
                _ => return Ok(lhs),
            }
        }
    }

    /// The value of a `with` update: operators binding tighter than `with`.
    pub(crate) fn binop_above_with(&mut self) -> PResult<Exp> {
        self.binop(PREC_WITH + 1)
    }

    /// A record field name: a name or a decimal number.
    pub(crate) fn field_id(&mut self, expected: &str) -> PResult<Ident> {
        match self.tok().clone() {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            Tok::Int { suffix: None, .. } => {
                let span = self.bump().span;
                Ok(Ident {
                    name: self.src[span.range()].to_string(),
                    span,
                })
            }
            _ => self.unexpected(expected),
        }
    }

    /// Prefix `-` and `!`, which bind tighter than infix operators but
    /// looser than application.
    fn unary(&mut self) -> PResult<Exp> {
        let start = self.span();
        if self.is_symbol("-") || self.is_symbol("!") {
            let neg = self.is_symbol("-");
            self.bump();
            let e = self.nested(|p| p.unary())?;
            let kind = if neg {
                ExpKind::Negate(Box::new(e))
            } else {
                ExpKind::Not(Box::new(e))
            };
            return Ok(self.mk(kind, self.span_from(start)));
        }
        self.application()
    }

    fn at_atom_start(&self) -> bool {
        match self.tok() {
            Tok::Ident(_) => self.qual_op_len().is_none(),
            Tok::Int { .. }
            | Tok::Float { .. }
            | Tok::Char(_)
            | Tok::Str(_)
            | Tok::Kw(Kw::True)
            | Tok::Kw(Kw::False)
            | Tok::LParen
            | Tok::LBracket
            | Tok::LBrace
            | Tok::Hole
            | Tok::Constr(_) => true,
            _ => false,
        }
    }

    /// Application by juxtaposition, or a form that extends to the right
    /// (`if`, `let`, `loop`, `match`, lambda, `assert`, attribute).
    fn application(&mut self) -> PResult<Exp> {
        let start = self.span();
        if let Some(e) = self.keyword_form()? {
            return Ok(e);
        }
        if let Tok::Constr(name) = self.tok().clone() {
            let c = Ident {
                name,
                span: self.bump().span,
            };
            let mut args = vec![];
            while self.at_atom_start() {
                args.push(self.postfix_atom()?);
            }
            return Ok(self.mk(ExpKind::Constr(c, args), self.span_from(start)));
        }
        let head = self.postfix_atom()?;
        let mut args = vec![];
        loop {
            if self.at(&Tok::Backslash) {
                // A lambda as last argument: `f x \y -> e`.
                args.push(self.nested(|p| p.lambda())?);
                break;
            }
            if !self.at_atom_start() {
                break;
            }
            args.push(self.postfix_atom()?);
        }
        if args.is_empty() {
            return Ok(head);
        }
        Ok(self.mk(ExpKind::Apply(Box::new(head), args), self.span_from(start)))
    }

    fn keyword_form(&mut self) -> PResult<Option<Exp>> {
        let start = self.span();
        let e = match self.tok() {
            Tok::Kw(Kw::If) => {
                self.bump();
                let c = self.exp()?;
                self.expect_kw(Kw::Then, "'then'")?;
                let t = self.exp()?;
                self.expect_kw(Kw::Else, "'else'")?;
                let f = self.exp()?;
                self.mk(
                    ExpKind::If(Box::new(c), Box::new(t), Box::new(f)),
                    self.span_from(start),
                )
            }
            Tok::Kw(Kw::Let) => self.let_chain()?,
            Tok::Kw(Kw::Loop) => self.loop_exp()?,
            Tok::Kw(Kw::Match) => {
                self.bump();
                let scrut = self.exp()?;
                let mut cases = vec![];
                while self.eat_kw(Kw::Case) {
                    let pat = self.pat_in_case()?;
                    self.expect(&Tok::Arrow, "'->' after case pattern")?;
                    let body = self.exp()?;
                    cases.push((pat, body));
                }
                if cases.is_empty() {
                    return self.unexpected("'case'");
                }
                self.mk(
                    ExpKind::Match(Box::new(scrut), cases),
                    self.span_from(start),
                )
            }
            Tok::Backslash => self.lambda()?,
            Tok::Kw(Kw::Assert) => {
                self.bump();
                let c = self.postfix_atom()?;
                let e = self.exp()?;
                self.mk(
                    ExpKind::Assert(Box::new(c), Box::new(e)),
                    self.span_from(start),
                )
            }
            Tok::HashBracket => {
                self.bump();
                let a = self.attr_body()?;
                let e = self.exp()?;
                self.mk(ExpKind::Attr(a, Box::new(e)), self.span_from(start))
            }
            _ => return Ok(None),
        };
        Ok(Some(e))
    }

    /// `\p1 p2 [: t] -> e`
    fn lambda(&mut self) -> PResult<Exp> {
        let start = self.expect(&Tok::Backslash, "'\\'")?;
        let mut params = vec![self.pat_atom()?];
        while self.at_pat_atom_start() {
            params.push(self.pat_atom()?);
        }
        let ret = if self.eat(&Tok::Colon) {
            Some(self.type_no_arrow()?)
        } else {
            None
        };
        self.expect(&Tok::Arrow, "'->' after lambda parameters")?;
        let body = self.exp()?;
        Ok(self.mk(
            ExpKind::Lambda {
                params,
                ret,
                body: Box::new(body),
            },
            self.span_from(start),
        ))
    }

    /// `loop [n] p [= init] (for i < n | for p in xs | while c) do body`
    fn loop_exp(&mut self) -> PResult<Exp> {
        let start = self.expect_kw(Kw::Loop, "'loop'")?;
        let sizes = self.size_binders()?;
        let pat = self.pat()?;
        let init = if self.eat(&Tok::Equals) {
            Some(Box::new(self.exp()?))
        } else {
            None
        };
        let form = if self.eat_kw(Kw::For) {
            if matches!(self.tok(), Tok::Ident(_))
                && matches!(self.peek_at(1), Tok::Symbol(s) if s == "<")
            {
                let i = self.ident("loop variable")?;
                self.bump();
                LoopForm::For(i, Box::new(self.exp()?))
            } else {
                let p = self.pat()?;
                self.expect_kw(Kw::In, "'in' after loop pattern")?;
                LoopForm::ForIn(p, Box::new(self.exp()?))
            }
        } else if self.eat_kw(Kw::While) {
            LoopForm::While(Box::new(self.exp()?))
        } else {
            return self.unexpected("'for' or 'while'");
        };
        self.expect_kw(Kw::Do, "'do'")?;
        let body = self.exp()?;
        Ok(self.mk(
            ExpKind::Loop {
                sizes,
                pat,
                init,
                form,
                body: Box::new(body),
            },
            self.span_from(start),
        ))
    }

    /// Size binders `[n] [m]` before a pattern in `let` and `loop`.
    fn size_binders(&mut self) -> PResult<Vec<Ident>> {
        let mut sizes = vec![];
        while self.at(&Tok::LBracket) {
            self.bump();
            sizes.push(self.ident("size name")?);
            self.expect(&Tok::RBracket, "']' after size name")?;
        }
        Ok(sizes)
    }

    /// A sequence of `let` bindings and its body. Chains are parsed
    /// iteratively so that long function bodies do not deepen the stack.
    fn let_chain(&mut self) -> PResult<Exp> {
        let mut heads = vec![];
        loop {
            let start = self.expect_kw(Kw::Let, "'let'")?;
            heads.push((start, self.let_head()?));
            if self.eat_kw(Kw::In) {
                if !self.at_kw(Kw::Let) {
                    break;
                }
            } else if !self.at_kw(Kw::Let) {
                return self.unexpected("'in' after let binding");
            }
        }
        let mut body = self.exp()?;
        for (start, head) in heads.into_iter().rev() {
            let span = start.to(body.span);
            let b = Box::new(body);
            let kind = match head {
                LetHead::Pat { sizes, pat, rhs } => ExpKind::Let {
                    sizes,
                    pat,
                    rhs,
                    body: b,
                },
                LetHead::Fun {
                    name,
                    type_params,
                    params,
                    ret,
                    rhs,
                } => ExpKind::LetFun {
                    name,
                    type_params,
                    params,
                    ret,
                    rhs,
                    body: b,
                },
            };
            body = self.mk(kind, span);
        }
        Ok(body)
    }

    /// The part of a `let` between the keyword and `in`.
    fn let_head(&mut self) -> PResult<LetHead> {
        if self.at(&Tok::LBracket) {
            let sizes = self.size_binders()?;
            let pat = self.pat()?;
            self.expect(&Tok::Equals, "'=' after let pattern")?;
            let rhs = Box::new(self.exp()?);
            return Ok(LetHead::Pat { sizes, pat, rhs });
        }
        if let Tok::Ident(name) = self.tok().clone() {
            let name_tok = self.token().clone();
            let next = self.peek_at(1).clone();
            let glued = self.adjacent_at(1);
            let target = Ident {
                name: name.clone(),
                span: name_tok.span,
            };
            if glued && (next == Tok::LBracket || next == Tok::Dot) && name != "_" {
                // `let a[i] = v` / `let r.x.y = v`: sugar for an update.
                self.bump();
                let var = QualName {
                    quals: vec![],
                    name,
                    span: name_tok.span,
                };
                let base = self.mk(ExpKind::Var(var), name_tok.span);
                let rhs = Box::new(self.update_path(base, false, name_tok.span)?);
                return Ok(LetHead::Pat {
                    sizes: vec![],
                    pat: Pat::Id(target),
                    rhs,
                });
            }
            let is_fun = name != "_"
                && matches!(
                    next,
                    Tok::Ident(_)
                        | Tok::LParen
                        | Tok::LBrace
                        | Tok::LBracket
                        | Tok::Tick
                        | Tok::TickTilde
                        | Tok::TickHat
                );
            if is_fun {
                self.bump();
                let type_params = self.type_params()?;
                let mut params = vec![];
                while self.at_pat_atom_start() {
                    params.push(self.pat_atom()?);
                }
                let ret = if self.eat(&Tok::Colon) {
                    Some(self.type_exp()?)
                } else {
                    None
                };
                self.expect(&Tok::Equals, "'=' after function parameters")?;
                let rhs = Box::new(self.exp()?);
                return Ok(LetHead::Fun {
                    name: target,
                    type_params,
                    params,
                    ret,
                    rhs,
                });
            }
        }
        let pat = self.pat()?;
        self.expect(&Tok::Equals, "'=' after let pattern")?;
        let rhs = Box::new(self.exp()?);
        Ok(LetHead::Pat {
            sizes: vec![],
            pat,
            rhs,
        })
    }

    /// An atom followed by indexing `a[i]` and projections `.x`, `.0`
    /// written without spaces.
    pub(crate) fn postfix_atom(&mut self) -> PResult<Exp> {
        let start = self.span();
        let mut e = self.atom()?;
        loop {
            if self.at(&Tok::LBracket) && self.adjacent() {
                self.bump();
                let idx = self.nested(|p| p.slice_body())?;
                e = self.mk(ExpKind::Index(Box::new(e), idx), self.span_from(start));
            } else if self.at(&Tok::Dot)
                && self.adjacent()
                && self.adjacent_at(1)
                && matches!(
                    self.peek_at(1),
                    Tok::Ident(_) | Tok::Int { suffix: None, .. }
                )
            {
                self.bump();
                let f = self.field_id("field name")?;
                e = self.mk(ExpKind::Project(Box::new(e), f), self.span_from(start));
            } else {
                return Ok(e);
            }
        }
    }

    /// Slice components up to and including `]`.
    pub(crate) fn slice_body(&mut self) -> PResult<Vec<DimIndex>> {
        self.comma_list(&Tok::RBracket, "index", |p| p.dim_index())
    }

    fn dim_index(&mut self) -> PResult<DimIndex> {
        let stop = |p: &Self| matches!(p.tok(), Tok::Colon | Tok::Comma | Tok::RBracket);
        let start = if self.at(&Tok::Colon) {
            None
        } else {
            Some(self.range_exp()?)
        };
        if !self.eat(&Tok::Colon) {
            match start {
                Some(e) => return Ok(DimIndex::Fix(e)),
                None => return self.unexpected("index"),
            }
        }
        let end = if stop(self) {
            None
        } else {
            Some(self.range_exp()?)
        };
        let stride = if self.eat(&Tok::Colon) {
            if stop(self) {
                None
            } else {
                Some(self.range_exp()?)
            }
        } else {
            None
        };
        Ok(DimIndex::Slice { start, end, stride })
    }

    fn lit(&mut self, l: Lit) -> Exp {
        let span = self.bump().span;
        self.mk(ExpKind::Lit(l), span)
    }

    fn atom(&mut self) -> PResult<Exp> {
        let start = self.span();
        match self.tok().clone() {
            Tok::Int { value, suffix } => Ok(self.lit(Lit::Int { value, suffix })),
            Tok::Float { value, suffix } => Ok(self.lit(Lit::Float { value, suffix })),
            Tok::Char(c) => Ok(self.lit(Lit::Char(c))),
            Tok::Kw(Kw::True) => Ok(self.lit(Lit::Bool(true))),
            Tok::Kw(Kw::False) => Ok(self.lit(Lit::Bool(false))),
            Tok::Str(s) => {
                self.bump();
                Ok(self.mk(ExpKind::StringLit(s), start))
            }
            Tok::Hole => {
                self.bump();
                Ok(self.mk(ExpKind::Hole, start))
            }
            Tok::Constr(name) => {
                self.bump();
                Ok(self.mk(ExpKind::Constr(Ident { name, span: start }, vec![]), start))
            }
            Tok::Ident(_) => {
                let q = self.qualname("name")?;
                if self.at(&Tok::Dot)
                    && self.adjacent()
                    && *self.peek_at(1) == Tok::LParen
                    && self.adjacent_at(1)
                {
                    // `M.(e)`: the last name is a module too.
                    self.bump();
                    self.bump();
                    let e = self.exp()?;
                    self.expect(&Tok::RParen, "')'")?;
                    return Ok(self.mk(ExpKind::QualParens(q, Box::new(e)), self.span_from(start)));
                }
                let span = q.span;
                Ok(self.mk(ExpKind::Var(q), span))
            }
            Tok::LParen => self.paren_exp(),
            Tok::LBracket => {
                self.bump();
                let es =
                    self.nested(|p| p.comma_list(&Tok::RBracket, "array element", |p| p.exp()))?;
                Ok(self.mk(ExpKind::ArrayLit(es), self.span_from(start)))
            }
            Tok::LBrace => {
                self.bump();
                let fs =
                    self.nested(|p| p.comma_list(&Tok::RBrace, "record field", |p| p.field_exp()))?;
                Ok(self.mk(ExpKind::Record(fs), self.span_from(start)))
            }
            _ => self.unexpected("expression"),
        }
    }

    fn field_exp(&mut self) -> PResult<FieldExp> {
        let f = self.field_id("field name")?;
        if self.eat(&Tok::Equals) {
            Ok(FieldExp::Explicit(f, self.exp()?))
        } else if f.name.starts_with(|c: char| c.is_ascii_digit()) {
            self.unexpected("'=' after numeric field name")
        } else {
            Ok(FieldExp::Implicit(f))
        }
    }

    /// The forms that start with `(`: unit, parenthesised expressions,
    /// tuples, operator sections and projection sections.
    fn paren_exp(&mut self) -> PResult<Exp> {
        let start = self.expect(&Tok::LParen, "'('")?;
        if self.eat(&Tok::RParen) {
            return Ok(self.mk(ExpKind::Tuple(vec![]), self.span_from(start)));
        }
        if self.at(&Tok::Dot) {
            return self.project_section(start);
        }
        // Operator sections `(+)`, `(+ e)`, `(f32.+)`, `` (`f` e) ``.
        let op = match self.tok() {
            Tok::Symbol(s) => {
                let n = 1;
                let is_prefix = s == "-" || s == "!";
                if is_prefix && *self.peek_at(1) != Tok::RParen {
                    None
                } else {
                    Some((
                        QualName {
                            quals: vec![],
                            name: s.clone(),
                            span: self.span(),
                        },
                        n,
                    ))
                }
            }
            Tok::Backtick => self.backtick_op(),
            Tok::Ident(_) => self.qual_op_len().map(|n| (self.qual_op_at(n), n)),
            _ => None,
        };
        if let Some((op, n)) = op {
            for _ in 0..n {
                self.bump();
            }
            if self.eat(&Tok::RParen) {
                return Ok(self.mk(ExpKind::OpSection(op), self.span_from(start)));
            }
            let e = self.exp()?;
            self.expect(&Tok::RParen, "')' after operator section")?;
            return Ok(self.mk(
                ExpKind::OpSectionRight(op, Box::new(e)),
                self.span_from(start),
            ));
        }
        let mut e = self.exp()?;
        if self.eat(&Tok::RParen) {
            e.span = self.span_from(start);
            return Ok(e);
        }
        if self.eat(&Tok::Comma) {
            let mut es = vec![e];
            es.extend(self.comma_list(&Tok::RParen, "tuple element", |p| p.exp())?);
            return Ok(self.mk(ExpKind::Tuple(es), self.span_from(start)));
        }
        if let Some(Infix::Op(op, _, _, n)) = self.peek_infix() {
            if *self.peek_at(n) == Tok::RParen {
                for _ in 0..=n {
                    self.bump();
                }
                return Ok(self.mk(
                    ExpKind::OpSectionLeft(op, Box::new(e)),
                    self.span_from(start),
                ));
            }
        }
        self.unexpected("')'")
    }

    /// `(.x.y)`, `(.[i])`, `(.x.[i])` after `(`.
    fn project_section(&mut self, start: Span) -> PResult<Exp> {
        let mut steps = vec![];
        loop {
            if self.eat(&Tok::RParen) {
                if steps.is_empty() {
                    return self.unexpected("field name or '['");
                }
                return Ok(self.mk(ExpKind::ProjectSection(steps), self.span_from(start)));
            }
            let dotted = self.eat(&Tok::Dot);
            if self.eat(&Tok::LBracket) {
                steps.push(SectionStep::Index(self.slice_body()?));
            } else if dotted {
                steps.push(SectionStep::Field(self.field_id("field name or '['")?));
            } else {
                return self.unexpected("'.', '[' or ')'");
            }
        }
    }
}

enum LetHead {
    Pat {
        sizes: Vec<Ident>,
        pat: Pat,
        rhs: Box<Exp>,
    },
    Fun {
        name: Ident,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        rhs: Box<Exp>,
    },
}
