//! Substitution of variable uses (not bindings) throughout IR fragments,
//! including nested bodies and the dimensions of types.

use crate::ir::{Body, Exp, Lambda, Operand, Stm};
use crate::names::VName;
use crate::types::{Dim, Type};
use crate::visit::VisitorMut;
use rustc_hash::FxHashMap;

/// A map from names to the names that replace them.
#[derive(Clone, Debug, Default)]
pub struct Subst {
    map: FxHashMap<VName, VName>,
}

impl Subst {
    /// What `v` is replaced by (itself when not mapped).
    pub fn get(&self, v: VName) -> VName {
        self.map.get(&v).copied().unwrap_or(v)
    }

    /// What `v` is replaced by, if mapped.
    pub fn lookup(&self, v: VName) -> Option<VName> {
        self.map.get(&v).copied()
    }

    pub fn set(&mut self, from: VName, to: VName) {
        self.map.insert(from, to);
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn operand(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.get(v)),
            c => c,
        }
    }

    pub fn dim(&self, d: Dim) -> Dim {
        match d {
            Dim::Var(v) => Dim::Var(self.get(v)),
            d => d,
        }
    }

    /// `t` with its dimensions substituted.
    pub fn ty(&self, t: &Type) -> Type {
        let mut t = t.clone();
        ty(&mut t, self);
        t
    }
}

struct Substitute<'a>(&'a Subst);

impl VisitorMut for Substitute<'_> {
    fn visit_var(&mut self, v: &mut VName) {
        *v = self.0.get(*v);
    }
}

/// Renames every use in `t` by `s`.
pub fn ty(t: &mut Type, s: &Subst) {
    Substitute(s).visit_type(t)
}

/// Renames every use in `e` by `s`.
pub fn exp(e: &mut Exp, s: &Subst) {
    Substitute(s).visit_exp(e)
}

/// Renames every use in `st` (its expression and pattern types) by `s`.
pub fn stm(st: &mut Stm, s: &Subst) {
    Substitute(s).visit_stm(st)
}

pub fn body(b: &mut Body, s: &Subst) {
    Substitute(s).visit_body(b)
}

pub fn lambda(l: &mut Lambda, s: &Subst) {
    Substitute(s).visit_lambda(l)
}
