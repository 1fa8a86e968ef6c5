//! Type expressions.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

impl<'a> Parser<'a> {
    /// A full type, including function arrows (right-associative).
    pub(crate) fn type_exp(&mut self) -> PResult<TypeExp> {
        self.nested(|p| {
            let start = p.span();
            // `(x: t1) -> t2` names its parameter.
            if p.at(&Tok::LParen)
                && matches!(p.peek_at(1), Tok::Ident(_))
                && *p.peek_at(2) == Tok::Colon
            {
                p.bump();
                let name = p.ident("parameter name")?;
                p.bump();
                let t = p.type_exp()?;
                p.expect(&Tok::RParen, "')' after parameter type")?;
                p.expect(&Tok::Arrow, "'->' after named parameter")?;
                let r = p.type_exp()?;
                return Ok(TypeExp::Arrow(
                    Some(name),
                    Box::new(t),
                    Box::new(r),
                    p.span_from(start),
                ));
            }
            let t = p.type_term()?;
            if p.eat(&Tok::Arrow) {
                let r = p.type_exp()?;
                return Ok(TypeExp::Arrow(
                    None,
                    Box::new(t),
                    Box::new(r),
                    p.span_from(start),
                ));
            }
            Ok(t)
        })
    }

    /// A type without a top-level arrow, as in a lambda's return type,
    /// where `->` belongs to the lambda.
    pub(crate) fn type_no_arrow(&mut self) -> PResult<TypeExp> {
        self.nested(|p| p.type_term())
    }

    fn type_term(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        match self.tok() {
            Tok::Symbol(s) if s == "*" => {
                self.bump();
                let t = self.nested(|p| p.type_term())?;
                Ok(TypeExp::Unique(Box::new(t), self.span_from(start)))
            }
            Tok::LBracket => {
                let d = self.size_arg()?;
                let t = self.nested(|p| p.type_term())?;
                Ok(TypeExp::Array(
                    Box::new(d),
                    Box::new(t),
                    self.span_from(start),
                ))
            }
            Tok::Question => {
                self.bump();
                let mut names = vec![];
                while self.eat(&Tok::LBracket) {
                    names.push(self.ident("size name")?);
                    self.expect(&Tok::RBracket, "']' after size name")?;
                }
                if names.is_empty() {
                    return self.unexpected("'[' after '?'");
                }
                self.expect(&Tok::Dot, "'.' after existential sizes")?;
                let t = self.type_exp()?;
                Ok(TypeExp::Exists(names, Box::new(t), self.span_from(start)))
            }
            Tok::Constr(_) => self.sum_type(),
            Tok::Ident(_) => {
                let name = self.qualname("type")?;
                let mut args = vec![];
                loop {
                    match self.tok() {
                        Tok::LBracket => args.push(TypeArg::Size(self.size_arg()?)),
                        Tok::Ident(_) | Tok::LParen | Tok::LBrace => {
                            args.push(TypeArg::Type(self.type_atom()?))
                        }
                        _ => break,
                    }
                }
                Ok(TypeExp::Named {
                    name,
                    args,
                    span: self.span_from(start),
                })
            }
            _ => self.type_atom(),
        }
    }

    /// `[]` or `[e]`.
    fn size_arg(&mut self) -> PResult<SizeExp> {
        let start = self.expect(&Tok::LBracket, "'['")?;
        if self.eat(&Tok::RBracket) {
            return Ok(SizeExp::Any(self.span_from(start)));
        }
        let e = self.exp()?;
        self.expect(&Tok::RBracket, "']' after size")?;
        Ok(SizeExp::Exp(e))
    }

    /// `#a t1 t2 | #b | ...`
    fn sum_type(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        let mut cs = vec![];
        loop {
            let Tok::Constr(name) = self.tok().clone() else {
                return self.unexpected("constructor");
            };
            let c = Ident {
                name,
                span: self.bump().span,
            };
            let mut payload = vec![];
            while matches!(
                self.tok(),
                Tok::Ident(_) | Tok::LParen | Tok::LBrace | Tok::LBracket
            ) || self.is_symbol("*")
            {
                payload.push(self.nested(|p| p.payload_type())?);
            }
            cs.push((c, payload));
            if !self.is_symbol("|") {
                break;
            }
            self.bump();
        }
        Ok(TypeExp::Sum(cs, self.span_from(start)))
    }

    /// A constructor payload: an atomic type, possibly an array of one.
    fn payload_type(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        if self.at(&Tok::LBracket) {
            let d = self.size_arg()?;
            let t = self.nested(|p| p.payload_type())?;
            return Ok(TypeExp::Array(
                Box::new(d),
                Box::new(t),
                self.span_from(start),
            ));
        }
        if self.is_symbol("*") {
            self.bump();
            let t = self.nested(|p| p.payload_type())?;
            return Ok(TypeExp::Unique(Box::new(t), self.span_from(start)));
        }
        self.type_atom()
    }

    /// A name without arguments, a parenthesised or tuple type, a record.
    fn type_atom(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        match self.tok() {
            Tok::Ident(_) => {
                let name = self.qualname("type")?;
                Ok(TypeExp::Named {
                    name,
                    args: vec![],
                    span: self.span_from(start),
                })
            }
            Tok::LParen => {
                self.bump();
                let mut ts =
                    self.nested(|p| p.comma_list(&Tok::RParen, "type", |p| p.type_exp()))?;
                // A one-element tuple does not exist: `(t)` is `t`.
                if ts.len() == 1 {
                    if let Some(t) = ts.pop() {
                        return Ok(t);
                    }
                }
                Ok(TypeExp::Tuple(ts, self.span_from(start)))
            }
            Tok::LBrace => {
                self.bump();
                let fs = self.nested(|p| {
                    p.comma_list(&Tok::RBrace, "record field type", |p| {
                        let f = p.field_id("field name")?;
                        p.expect(&Tok::Colon, "':' after field name")?;
                        Ok((f, p.type_exp()?))
                    })
                })?;
                Ok(TypeExp::Record(fs, self.span_from(start)))
            }
            _ => self.unexpected("type"),
        }
    }
}
