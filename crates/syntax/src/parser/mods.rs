//! The module language: module declarations, module expressions, module
//! types and their specifications.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Tok};

impl<'a> Parser<'a> {
    /// `module m params [: mt] = me` or `module type mt = mte`.
    pub(crate) fn module_decl(&mut self, doc: Option<String>) -> PResult<Decl> {
        let start = self.expect_kw(Kw::Module, "'module'")?;
        if self.eat_kw(Kw::Type) {
            let name = self.ident("module type name")?;
            self.expect(&Tok::Equals, "'=' after module type name")?;
            let def = self.mod_type_exp()?;
            let span = self.span_from(start);
            return Ok(Decl::ModType(ModTypeDecl {
                name,
                def,
                doc,
                span,
            }));
        }
        let name = self.ident("module name")?;
        let mut params = vec![];
        while self.at(&Tok::LParen) {
            params.push(self.mod_param()?);
        }
        let sig = if self.eat(&Tok::Colon) {
            Some(self.mod_type_exp()?)
        } else {
            None
        };
        self.expect(&Tok::Equals, "'=' in module declaration")?;
        let body = self.mod_exp()?;
        let span = self.span_from(start);
        Ok(Decl::Module(ModDecl {
            name,
            params,
            sig,
            body,
            doc,
            span,
        }))
    }

    /// `(p: mt)`
    fn mod_param(&mut self) -> PResult<ModParam> {
        let start = self.expect(&Tok::LParen, "'('")?;
        let name = self.ident("module parameter name")?;
        self.expect(&Tok::Colon, "':' after module parameter")?;
        let sig = self.mod_type_exp()?;
        self.expect(&Tok::RParen, "')' after module parameter type")?;
        Ok(ModParam {
            name,
            sig,
            span: self.span_from(start),
        })
    }

    pub(crate) fn mod_exp(&mut self) -> PResult<ModExp> {
        self.nested(|p| {
            let start = p.span();
            if p.eat(&Tok::Backslash) {
                let mut params = vec![p.mod_param()?];
                while p.at(&Tok::LParen) {
                    params.push(p.mod_param()?);
                }
                let sig = if p.eat(&Tok::Colon) {
                    Some(p.mod_type_no_arrow()?)
                } else {
                    None
                };
                p.expect(&Tok::Arrow, "'->' after module parameters")?;
                let mut body = p.mod_exp()?;
                let span = p.span_from(start);
                // `\(a: A) (b: B) -> e` is `\(a: A) -> \(b: B) -> e`.
                let mut sig = sig;
                while let Some(param) = params.pop() {
                    body = ModExp::Lambda(Box::new(param), sig.take(), Box::new(body), span);
                }
                return Ok(body);
            }
            let mut e = p.mod_atom()?;
            // An argument is never `import "file"`: a declaration
            // `import "file"` after a module declaration starts a new one.
            while matches!(p.tok(), Tok::Ident(_) | Tok::LParen | Tok::LBrace) {
                let arg = p.mod_atom()?;
                e = ModExp::Apply(Box::new(e), Box::new(arg), p.span_from(start));
            }
            while p.eat(&Tok::Colon) {
                let t = p.mod_type_exp()?;
                e = ModExp::Ascribe(Box::new(e), t, p.span_from(start));
            }
            Ok(e)
        })
    }

    fn mod_atom(&mut self) -> PResult<ModExp> {
        let start = self.span();
        match self.tok().clone() {
            Tok::Ident(_) => Ok(ModExp::Var(self.qualname("module")?)),
            Tok::LParen => {
                self.bump();
                let e = self.mod_exp()?;
                self.expect(&Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::LBrace => {
                self.bump();
                let ds = self.nested(|p| p.decls_until(&Tok::RBrace))?;
                self.expect(&Tok::RBrace, "'}' or declaration")?;
                Ok(ModExp::Struct(ds, self.span_from(start)))
            }
            Tok::Kw(Kw::Import) => {
                self.bump();
                let Tok::Str(path) = self.tok().clone() else {
                    return self.unexpected("string literal after 'import'");
                };
                self.bump();
                Ok(ModExp::Import(path, self.span_from(start)))
            }
            _ => self.unexpected("module expression"),
        }
    }

    pub(crate) fn mod_type_exp(&mut self) -> PResult<ModTypeExp> {
        self.nested(|p| {
            let start = p.span();
            if p.at(&Tok::LParen)
                && matches!(p.peek_at(1), Tok::Ident(_))
                && *p.peek_at(2) == Tok::Colon
            {
                p.bump();
                let name = p.ident("parameter name")?;
                p.bump();
                let a = p.mod_type_exp()?;
                p.expect(&Tok::RParen, "')'")?;
                p.expect(&Tok::Arrow, "'->' after module type parameter")?;
                let r = p.mod_type_exp()?;
                return Ok(ModTypeExp::Arrow(
                    Some(name),
                    Box::new(a),
                    Box::new(r),
                    p.span_from(start),
                ));
            }
            let t = p.mod_type_no_arrow()?;
            if p.eat(&Tok::Arrow) {
                let r = p.mod_type_exp()?;
                return Ok(ModTypeExp::Arrow(
                    None,
                    Box::new(t),
                    Box::new(r),
                    p.span_from(start),
                ));
            }
            Ok(t)
        })
    }

    /// A module type with `with` refinements but no top-level arrow, as in
    /// a module lambda's result signature, where `->` belongs to the lambda.
    fn mod_type_no_arrow(&mut self) -> PResult<ModTypeExp> {
        self.nested(|p| {
            let start = p.span();
            let mut t = p.mod_type_atom()?;
            while p.eat_kw(Kw::With) {
                let name = p.qualname("type name after 'with'")?;
                let params = p.type_params()?;
                p.expect(&Tok::Equals, "'=' in module type refinement")?;
                let te = p.type_exp()?;
                t = ModTypeExp::With(Box::new(t), name, params, te, p.span_from(start));
            }
            Ok(t)
        })
    }

    fn mod_type_atom(&mut self) -> PResult<ModTypeExp> {
        let start = self.span();
        match self.tok() {
            Tok::Ident(_) => Ok(ModTypeExp::Var(self.qualname("module type")?)),
            Tok::LParen => {
                self.bump();
                let t = self.mod_type_exp()?;
                self.expect(&Tok::RParen, "')'")?;
                Ok(t)
            }
            Tok::LBrace => {
                self.bump();
                let mut specs = vec![];
                while !self.at(&Tok::RBrace) {
                    specs.push(self.spec()?);
                }
                self.bump();
                Ok(ModTypeExp::Specs(specs, self.span_from(start)))
            }
            _ => self.unexpected("module type"),
        }
    }

    fn spec(&mut self) -> PResult<Spec> {
        let doc = self.doc_here();
        // Attributes on specs have no effect here and are dropped.
        while self.eat(&Tok::HashBracket) {
            self.attr_body()?;
        }
        let start = self.span();
        match self.tok() {
            Tok::Kw(Kw::Val) => {
                self.bump();
                let name = match self.tok().clone() {
                    Tok::LParen if matches!(self.peek_at(1), Tok::Symbol(_)) => {
                        self.bump();
                        let t = self.bump();
                        self.expect(&Tok::RParen, "')' after operator")?;
                        let name = match t.tok {
                            Tok::Symbol(s) => s,
                            _ => String::new(),
                        };
                        Ident { name, span: t.span }
                    }
                    Tok::Symbol(s) => Ident {
                        name: s,
                        span: self.bump().span,
                    },
                    _ => self.ident("name after 'val'")?,
                };
                let type_params = self.type_params()?;
                self.expect(&Tok::Colon, "':' in value specification")?;
                let ty = self.type_exp()?;
                Ok(Spec::Val {
                    name,
                    type_params,
                    ty,
                    doc,
                    span: self.span_from(start),
                })
            }
            Tok::Kw(Kw::Type) => {
                self.bump();
                let liftedness = self.liftedness();
                let name = self.ident("type name")?;
                let params = self.type_params()?;
                let def = if self.eat(&Tok::Equals) {
                    Some(self.type_exp()?)
                } else {
                    None
                };
                Ok(Spec::Type {
                    name,
                    liftedness,
                    params,
                    def,
                    doc,
                    span: self.span_from(start),
                })
            }
            Tok::Kw(Kw::Module) => {
                self.bump();
                let name = self.ident("module name")?;
                self.expect(&Tok::Colon, "':' after module name")?;
                let sig = self.mod_type_exp()?;
                Ok(Spec::Module {
                    name,
                    sig,
                    doc,
                    span: self.span_from(start),
                })
            }
            Tok::Kw(Kw::Include) => {
                self.bump();
                let t = self.mod_type_exp()?;
                Ok(Spec::Include(t, self.span_from(start)))
            }
            _ => self.unexpected("specification or '}'"),
        }
    }
}
