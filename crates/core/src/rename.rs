//! Copies of IR fragments with fresh names. Every name is bound once in a
//! whole program, so duplicating code (re-executing a scope's forward
//! statements in reverse AD, hoisting, inlining) needs renamed copies.
//!
//! A [`Subst`] maps original names to their current copies; uses are
//! rewritten through it and every binder met on the way gets a fresh name
//! (whose type is recorded in the [`Ctx`]).

use crate::builder::Ctx;
use crate::ir::{Body, Exp, Lambda, Param, Stm};
use crate::names::{NameSource, VName};
use crate::subst::Subst;
use crate::types::Type;
use crate::visit::VisitorMut;

/// Gives every binder a fresh name and substitutes every use.
struct Freshen<'a> {
    names: &'a mut NameSource,
    subst: &'a mut Subst,
}

impl VisitorMut for Freshen<'_> {
    fn visit_var(&mut self, v: &mut VName) {
        *v = self.subst.get(*v);
    }
    fn visit_binder(&mut self, v: &mut VName, _: &Type) {
        let fresh = self.names.fresh_like(*v);
        self.subst.set(*v, fresh);
        *v = fresh;
    }
}

/// Renames binders and substitutes uses.
pub struct Renamer<'a> {
    pub ctx: &'a mut Ctx,
    pub subst: &'a mut Subst,
}

impl Renamer<'_> {
    fn freshen(&mut self) -> Freshen<'_> {
        Freshen {
            names: &mut self.ctx.names,
            subst: self.subst,
        }
    }

    /// A fresh copy of a binder; later uses of `p.name` refer to it.
    pub fn bind(&mut self, p: &Param) -> Param {
        let mut p = p.clone();
        self.freshen().visit_params(std::slice::from_mut(&mut p));
        self.ctx.types.insert(p.name, p.ty.clone());
        p
    }

    pub fn stm(&mut self, s: &Stm) -> Stm {
        let mut s = s.clone();
        self.freshen().visit_stm(&mut s);
        self.ctx.record_stm(&s);
        s
    }

    pub fn body(&mut self, b: &Body) -> Body {
        let mut b = b.clone();
        self.freshen().visit_body(&mut b);
        self.ctx.record_body(&b);
        b
    }

    pub fn lambda(&mut self, l: &Lambda) -> Lambda {
        let mut l = l.clone();
        self.freshen().visit_lambda(&mut l);
        self.ctx.record_lambda(&l);
        l
    }

    /// A copy of `e` with fresh names for what it binds inside.
    pub fn exp(&mut self, e: &Exp) -> Exp {
        let mut e = e.clone();
        self.freshen().visit_exp(&mut e);
        self.ctx.record_exp(&e);
        e
    }
}
