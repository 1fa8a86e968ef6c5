//! Declarations: values and functions, type abbreviations, modules,
//! `open`, `import`, `local`.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Tok};
use parad_base::Diagnostic;

impl<'a> Parser<'a> {
    /// Declarations up to end of file.
    pub(crate) fn program(&mut self) -> PResult<Program> {
        let decls = self.decls_until(&Tok::Eof)?;
        self.expect_eof()?;
        Ok(Program { decls })
    }

    /// Declarations up to (not including) `end`.
    pub(crate) fn decls_until(&mut self, end: &Tok) -> PResult<Vec<Decl>> {
        let mut ds = vec![];
        while !self.at(end) && !self.at(&Tok::Eof) {
            ds.push(self.decl(None)?);
        }
        Ok(ds)
    }

    /// The doc comment attached to the current token, if any.
    pub(crate) fn doc_here(&self) -> Option<String> {
        self.docs.get(&self.pos).cloned()
    }

    fn decl(&mut self, outer_doc: Option<String>) -> PResult<Decl> {
        self.nested(|p| {
            let doc = p.doc_here().or(outer_doc);
            let mut attrs = vec![];
            while p.eat(&Tok::HashBracket) {
                attrs.push(p.attr_body()?);
            }
            let start = p.span();
            match p.tok() {
                Tok::Kw(Kw::Def) => p.val_decl(ValKind::Def, attrs, doc),
                Tok::Kw(Kw::Let) => p.val_decl(ValKind::Let, attrs, doc),
                Tok::Kw(Kw::Entry) => p.val_decl(ValKind::Entry, attrs, doc),
                Tok::Kw(Kw::Type) => {
                    p.bump();
                    let liftedness = p.liftedness();
                    let name = p.ident("type name")?;
                    let params = p.type_params()?;
                    p.expect(&Tok::Equals, "'=' after type parameters")?;
                    let def = p.type_exp()?;
                    let span = p.span_from(start);
                    Ok(Decl::Type(TypeDecl {
                        name,
                        liftedness,
                        params,
                        def,
                        attrs,
                        doc,
                        span,
                    }))
                }
                // Attributes on module-level declarations carry no meaning
                // for us and have nowhere to go in the tree; they are dropped.
                Tok::Kw(Kw::Module) => p.module_decl(doc),
                Tok::Kw(Kw::Open) => {
                    p.bump();
                    let m = p.mod_exp()?;
                    Ok(Decl::Open(m, p.span_from(start)))
                }
                Tok::Kw(Kw::Import) => {
                    p.bump();
                    let Tok::Str(path) = p.tok().clone() else {
                        return p.unexpected("string literal after 'import'");
                    };
                    p.bump();
                    Ok(Decl::Import(path, p.span_from(start)))
                }
                Tok::Kw(Kw::Local) => {
                    p.bump();
                    let d = p.decl(doc)?;
                    Ok(Decl::Local(Box::new(d), p.span_from(start)))
                }
                _ => p.unexpected("declaration"),
            }
        })
    }

    /// `~` or `^` glued to a preceding `type` keyword.
    pub(crate) fn liftedness(&mut self) -> Liftedness {
        if self.adjacent() && self.at(&Tok::Tilde) {
            self.bump();
            Liftedness::SizeLifted
        } else if self.adjacent() && self.is_symbol("^") {
            self.bump();
            Liftedness::Lifted
        } else {
            Liftedness::Unlifted
        }
    }

    /// `def f [n] 'a p1 p2: t = e`, `def (op) p1 p2 = e`, `def p1 op p2 = e`.
    fn val_decl(&mut self, kind: ValKind, attrs: Vec<Attr>, doc: Option<String>) -> PResult<Decl> {
        let start = self.bump().span;
        let (name, type_params, params);
        let op_in_parens = self.at(&Tok::LParen)
            && matches!(self.peek_at(1), Tok::Symbol(_))
            && *self.peek_at(2) == Tok::RParen;
        let infix = matches!(self.tok(), Tok::LParen | Tok::LBrace)
            || (matches!(self.tok(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Symbol(_)));
        if op_in_parens {
            self.bump();
            let t = self.bump();
            let Tok::Symbol(s) = t.tok else {
                return self.unexpected("operator");
            };
            name = Ident {
                name: s,
                span: t.span,
            };
            self.bump();
            type_params = self.type_params()?;
            params = self.params()?;
        } else if infix {
            let lhs = self.pat_atom()?;
            let Tok::Symbol(s) = self.tok().clone() else {
                return self.unexpected("infix operator");
            };
            if s == "!" {
                return Err(Diagnostic::error(
                    self.token().span,
                    "'!' is a prefix operator and cannot be used as infix",
                ));
            }
            name = Ident {
                name: s,
                span: self.bump().span,
            };
            let rhs = self.pat_atom()?;
            type_params = vec![];
            params = vec![lhs, rhs];
        } else {
            name = self.ident("name of definition")?;
            type_params = self.type_params()?;
            params = self.params()?;
        }
        let ret = if self.eat(&Tok::Colon) {
            Some(self.type_exp()?)
        } else {
            None
        };
        self.expect(&Tok::Equals, "'=' in definition")?;
        let body = self.exp()?;
        let span = self.span_from(start);
        Ok(Decl::Val(ValDecl {
            kind,
            name,
            type_params,
            params,
            ret,
            body,
            attrs,
            doc,
            span,
        }))
    }

    fn params(&mut self) -> PResult<Vec<Pat>> {
        let mut ps = vec![];
        // Literal patterns are refutable; the type checker rejects them.
        while self.at_pat_atom_start() || self.at_pat_literal() {
            ps.push(self.pat_atom()?);
        }
        Ok(ps)
    }
}
