//! Variable occurrences and free variables of IR fragments, on the
//! generic traversal ([`crate::visit`]).

use crate::ir::{Body, Exp, FunDef, Lambda, Stm};
use crate::names::VName;
use crate::types::Type;
use crate::visit::Visitor;
use rustc_hash::{FxHashMap, FxHashSet};

/// Calls `uses` on every use of a variable and `binds` on every name bound.
struct Occurrences<U, B> {
    uses: U,
    binds: B,
}

impl<U: FnMut(VName), B: FnMut(VName)> Visitor for Occurrences<U, B> {
    fn visit_var(&mut self, v: &VName) {
        (self.uses)(*v)
    }
    fn visit_binder(&mut self, v: &VName, _: &Type) {
        (self.binds)(*v)
    }
}

/// A callback on names, or none.
type On<'a> = &'a mut dyn FnMut(VName);
type Ignore = fn(VName);

fn uses(f: On<'_>) -> Occurrences<On<'_>, Ignore> {
    Occurrences {
        uses: f,
        binds: |_| {},
    }
}

fn binds(f: On<'_>) -> Occurrences<Ignore, On<'_>> {
    Occurrences {
        uses: |_| {},
        binds: f,
    }
}

/// Calls `f` on every variable occurring in `e`, including occurrences
/// inside nested bodies and in the dimensions of types. Names bound inside
/// `e` are reported too when used; names are unique, so callers filter
/// them with the set of names they care about.
pub fn exp_uses(e: &Exp, f: &mut dyn FnMut(VName)) {
    uses(f).visit_exp(e)
}

/// Occurrences in a statement: its expression and its pattern's types.
pub fn stm_uses(s: &Stm, f: &mut dyn FnMut(VName)) {
    uses(f).visit_stm(s)
}

/// How often each name occurs in `f`: in its statements at any depth,
/// its result, and the dimensions of its return types (what a use count
/// for dead-code elimination starts from; names are unique, so one count
/// per name serves the whole function).
pub fn fun_use_counts(f: &FunDef) -> FxHashMap<VName, u32> {
    let mut counts = FxHashMap::default();
    let mut count = |v| *counts.entry(v).or_insert(0) += 1;
    for s in &f.body.stms {
        stm_uses(s, &mut count);
    }
    f.body
        .result
        .iter()
        .filter_map(|o| o.var())
        .for_each(&mut count);
    for t in &f.ret {
        let mut vs = vec![];
        t.dim_vars(&mut vs);
        vs.into_iter().for_each(&mut count)
    }
    counts
}

pub fn body_uses(b: &Body, f: &mut dyn FnMut(VName)) {
    uses(f).visit_body(b)
}

pub fn lambda_uses(l: &Lambda, f: &mut dyn FnMut(VName)) {
    uses(f).visit_lambda(l)
}

/// Calls `f` on every name bound inside `e` (patterns, parameters, loop
/// indices), not counting the statement's own pattern.
pub fn exp_binds(e: &Exp, f: &mut dyn FnMut(VName)) {
    binds(f).visit_exp(e)
}

pub fn body_binds(b: &Body, f: &mut dyn FnMut(VName)) {
    binds(f).visit_body(b)
}

/// Uses minus bindings.
fn free(visit: impl FnOnce(&mut dyn Visitor)) -> FxHashSet<VName> {
    let mut used = FxHashSet::default();
    let mut bound = FxHashSet::default();
    visit(&mut Occurrences {
        uses: |v| {
            used.insert(v);
        },
        binds: |v| {
            bound.insert(v);
        },
    });
    used.retain(|v| !bound.contains(v));
    used
}

/// Variables used in `b` but bound outside it.
pub fn free_in_body(b: &Body) -> FxHashSet<VName> {
    free(|v| v.visit_body(b))
}

/// Variables used in `l` but bound outside it.
pub fn free_in_lambda(l: &Lambda) -> FxHashSet<VName> {
    free(|v| v.visit_lambda(l))
}

/// Variables used in `e` but bound outside it.
pub fn free_in_exp(e: &Exp) -> FxHashSet<VName> {
    free(|v| v.visit_exp(e))
}
