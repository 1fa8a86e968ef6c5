//! Patterns, as used in parameters, `let`, `loop` and `match` cases.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Tok};

impl<'a> Parser<'a> {
    /// A full pattern: constructor application or atom, with an optional
    /// type ascription.
    pub(crate) fn pat(&mut self) -> PResult<Pat> {
        self.pat_with(true)
    }

    /// A pattern after `case`: an ascription's type stops before `->`.
    pub(crate) fn pat_in_case(&mut self) -> PResult<Pat> {
        self.pat_with(false)
    }

    fn pat_with(&mut self, arrow_in_type: bool) -> PResult<Pat> {
        self.nested(|p| {
            let start = p.span();
            if p.eat(&Tok::HashBracket) {
                let a = p.attr_body()?;
                let inner = p.pat_with(arrow_in_type)?;
                return Ok(Pat::Attr(a, Box::new(inner), p.span_from(start)));
            }
            let pat = if let Tok::Constr(name) = p.tok().clone() {
                let c = Ident {
                    name,
                    span: p.bump().span,
                };
                let mut args = vec![];
                while p.at_pat_atom_start() || p.at_pat_literal() {
                    args.push(p.pat_atom()?);
                }
                Pat::Constr(c, args, p.span_from(start))
            } else {
                p.pat_atom()?
            };
            if p.eat(&Tok::Colon) {
                let t = if arrow_in_type {
                    p.type_exp()?
                } else {
                    p.type_no_arrow()?
                };
                return Ok(Pat::Ascribe(Box::new(pat), t, p.span_from(start)));
            }
            Ok(pat)
        })
    }

    /// Whether a parameter pattern (name, `_`, parenthesised, record)
    /// starts here.
    pub(crate) fn at_pat_atom_start(&self) -> bool {
        matches!(
            self.tok(),
            Tok::Ident(_) | Tok::LParen | Tok::LBrace | Tok::HashBracket
        )
    }

    pub(crate) fn at_pat_literal(&self) -> bool {
        match self.tok() {
            Tok::Int { .. }
            | Tok::Float { .. }
            | Tok::Char(_)
            | Tok::Kw(Kw::True)
            | Tok::Kw(Kw::False)
            | Tok::Constr(_) => true,
            Tok::Symbol(s) => {
                s == "-" && matches!(self.peek_at(1), Tok::Int { .. } | Tok::Float { .. })
            }
            _ => false,
        }
    }

    pub(crate) fn pat_atom(&mut self) -> PResult<Pat> {
        let start = self.span();
        let lit = |p: &mut Self, l: Lit| Ok(Pat::Lit(l, p.bump().span));
        match self.tok().clone() {
            Tok::Ident(name) => {
                self.bump();
                if name == "_" {
                    Ok(Pat::Wildcard(start))
                } else {
                    Ok(Pat::Id(Ident { name, span: start }))
                }
            }
            Tok::Int { value, suffix } => lit(self, Lit::Int { value, suffix }),
            Tok::Float { value, suffix } => lit(self, Lit::Float { value, suffix }),
            Tok::Char(c) => lit(self, Lit::Char(c)),
            Tok::Kw(Kw::True) => lit(self, Lit::Bool(true)),
            Tok::Kw(Kw::False) => lit(self, Lit::Bool(false)),
            Tok::Symbol(s) if s == "-" => {
                self.bump();
                let l = match self.tok().clone() {
                    Tok::Int { value, suffix } => Lit::Int { value, suffix },
                    Tok::Float { value, suffix } => Lit::Float { value, suffix },
                    _ => return self.unexpected("numeric literal after '-' in pattern"),
                };
                self.bump();
                Ok(Pat::NegLit(l, self.span_from(start)))
            }
            Tok::Constr(name) => {
                self.bump();
                Ok(Pat::Constr(Ident { name, span: start }, vec![], start))
            }
            Tok::HashBracket => {
                self.bump();
                let a = self.attr_body()?;
                let inner = self.nested(|p| p.pat_atom())?;
                Ok(Pat::Attr(a, Box::new(inner), self.span_from(start)))
            }
            Tok::LParen
                if matches!(self.peek_at(1), Tok::Symbol(_)) && *self.peek_at(2) == Tok::RParen =>
            {
                // `(+)` binds an operator name.
                self.bump();
                let t = self.bump();
                self.bump();
                let name = match t.tok {
                    Tok::Symbol(s) => s,
                    _ => String::new(),
                };
                Ok(Pat::Id(Ident { name, span: t.span }))
            }
            Tok::LParen => {
                self.bump();
                let mut ps = self.nested(|p| p.comma_list(&Tok::RParen, "pattern", |p| p.pat()))?;
                if ps.len() == 1 {
                    if let Some(p) = ps.pop() {
                        return Ok(p);
                    }
                }
                Ok(Pat::Tuple(ps, self.span_from(start)))
            }
            Tok::LBrace => {
                self.bump();
                let fs = self.nested(|p| {
                    p.comma_list(&Tok::RBrace, "record pattern field", |p| {
                        let f = p.field_id("field name")?;
                        if p.eat(&Tok::Equals) {
                            let sub = p.pat()?;
                            Ok((f, Some(sub)))
                        } else if p.eat(&Tok::Colon) {
                            // `{x: t}` binds `x` with a type.
                            let t = p.type_exp()?;
                            let span = f.span.to(t.span());
                            Ok((f.clone(), Some(Pat::Ascribe(Box::new(Pat::Id(f)), t, span))))
                        } else {
                            Ok((f, None))
                        }
                    })
                })?;
                Ok(Pat::Record(fs, self.span_from(start)))
            }
            _ => self.unexpected("pattern"),
        }
    }
}
