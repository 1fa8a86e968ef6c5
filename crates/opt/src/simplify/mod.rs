//! The rule-based simplifier: small named rewrite rules run over every
//! statement, at every nesting level, until nothing changes.
//!
//! # Driver
//!
//! One round walks each function top-down ([`Ctx::body`]): a statement
//! first gets the substitutions recorded so far (copy propagation, CSE),
//! then its nested bodies are simplified, then the rules of [`RULES`] are
//! tried in order. The first rule that applies replaces the statement by
//! the statements it returns (possibly none), which are processed in turn
//! as if they had been there from the start. A statement no rule changes
//! is kept and what it tells is recorded in the [`Ctx`]: its defining
//! expression (so that `xs[i]` knows `xs` is an `iota`), the types of its
//! names (their known sizes), and its canonical form for CSE. After the
//! walk, [`dead`] removes what is unused. Rounds repeat until neither
//! changes anything, at most [`MAX_ROUNDS`] times.
//!
//! # Rules
//!
//! - [`fold`]: constant folding with the interpreter's own scalar
//!   semantics (never what would fail at run time, like an integer
//!   division by zero), algebraic identities, reassociation of integer
//!   constant offsets, signs of sizes and indices, assertions of `true`;
//! - [`share`]: copy propagation and CSE of whole statements (SOACs,
//!   branches and loops included; an array is not shared into a lambda
//!   that did not read it before);
//! - [`index`]: `size` of arrays of known shape, indexing into `iota`,
//!   `replicate`, `rearrange` and into rows of arrays;
//! - [`soac`]: results of a `map` that do not depend on its elements,
//!   `map` over `replicate`, integer sums of `replicate`, known sizes of
//!   `map` results, unused `map` inputs, `withacc` results computed
//!   outside it;
//! - [`control`]: `if` with a constant condition, equal branches, or
//!   results equal in both branches;
//! - [`loops`]: loops of no iterations, invariant code motion out of
//!   loops (and of cheap scalars out of `map`s);
//! - [`dead`]: unused statements, `map`, `withacc` and `if` results, loop
//!   parameters.
//!
//! # Floats and AD
//!
//! Float identities are only those exact under IEEE arithmetic (`x*1`,
//! `x/1`, `x-0`, `x+(-0)`, `-(-x)`), before and after AD alike. The issue
//! allows folding the zeros and ones AD creates (`x*0 = 0`, `x+0 = x`),
//! but `x*0 = 0` is wrong for infinities and NaN and `x+0 = x` for `-0`,
//! the optimiser's own test compares results bit for bit with the
//! unoptimised program, and the AD output of `tests/ad` and of the
//! benchmarks contains no `x+0` for such a rule to remove: AD seeds its
//! adjoints with the first contribution rather than adding it to zero.
//! So there is no mode for it; zero arrays (`replicate n 0`) are handled
//! exactly by the index and SOAC rules.
//!
//! # Soundness
//!
//! Names are unique, so facts about a name hold wherever it is in scope;
//! the CSE table alone is scoped (an expression computed in a branch is
//! not available after it). Rules that make two names share memory (CSE,
//! `map` of the identity) only apply when neither may be consumed:
//! consumption and aliasing are computed once per round
//! ([`parad_core::consume`]), and a name created during the round counts
//! as possibly consumed. Sizes come from the dimensions of statement
//! patterns and function parameters, which the interpreter checks when it
//! binds them, and from the defining expressions.
//!
//! # Limits
//!
//! Rules look at one statement and the definitions of its operands; no
//! ranges are inferred beyond "the index of `for i < n`" and "an element
//! of `iota n`", so most index folds need one of those. Invariant code
//! motion out of loops moves only what cannot fail (no guard is
//! introduced), and out of maps it is [`crate::hoist`]'s job. As the
//! DCE before it did, an unused statement goes even if it could fail (an
//! index out of bounds), and so does the width check of an unused `map`
//! input: a program that failed may then succeed, never the reverse.

mod control;
mod dead;

pub use dead::dce_fun;
mod fold;
mod index;
mod loops;
mod share;
mod soac;

use parad_base::PrimType;
use parad_core::consume::Consumption;
use parad_core::free::{body_binds, exp_binds};
use parad_core::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// A rewrite rule: `Some(stms)` replaces the statement by `stms`.
pub struct Rule {
    pub name: &'static str,
    pub apply: fn(&mut Ctx, &Stm) -> Option<Vec<Stm>>,
}

const fn rule(name: &'static str, apply: fn(&mut Ctx, &Stm) -> Option<Vec<Stm>>) -> Rule {
    Rule { name, apply }
}

/// The rules, in the order they are tried.
pub const RULES: &[Rule] = &[
    rule("copy_prop", share::copy_prop),
    rule("const_fold", fold::const_fold),
    rule("identity", fold::identity),
    rule("reassociate", fold::reassociate),
    rule("sign_known", fold::sign_known),
    rule("assert_true", fold::assert_true),
    rule("size_known", index::size_known),
    rule("index_iota", index::index_iota),
    rule("index_replicate", index::index_replicate),
    rule("index_rearrange", index::index_rearrange),
    rule("index_row", index::index_row),
    rule("if_const", control::if_const),
    rule("if_same_branches", control::if_same_branches),
    rule("if_same_results", control::if_same_results),
    rule("if_bool", control::if_bool),
    rule("loop_no_trips", loops::loop_no_trips),
    rule("loop_invariant", loops::loop_invariant),
    rule("map_invariant", loops::map_invariant),
    rule("map_invariant_results", soac::map_invariant_results),
    rule("map_replicate", soac::map_replicate),
    rule("map_known_sizes", soac::map_known_sizes),
    rule("map_unused_inputs", soac::map_unused_inputs),
    rule("withacc_invariant_results", soac::withacc_invariant_results),
    rule("reduce_replicate", soac::reduce_replicate),
    rule("cse", share::cse),
];

/// Rounds of rules and dead-code removal at most.
pub const MAX_ROUNDS: usize = 12;

/// Rule applications per function and round at most (a safeguard
/// against rules undoing each other).
const MAX_REWRITES: usize = 200_000;

/// Simplifies every function of `prog` to a fixed point.
pub fn simplify_program(prog: &mut Program) {
    for _ in 0..MAX_ROUNDS {
        let sums = Consumption::of_program(prog);
        let mut names = std::mem::take(&mut prog.names);
        let mut changed = false;
        for f in &mut prog.funs {
            changed |= simplify_fun(f, &sums, &mut names);
        }
        prog.names = names;
        if !changed {
            break;
        }
    }
}

/// One round on one function; whether anything changed.
fn simplify_fun(f: &mut FunDef, sums: &Consumption, names: &mut NameSource) -> bool {
    let facts = Facts::of(f, sums);
    let mut ctx = Ctx::new(names, facts);
    for p in &f.params {
        ctx.types.insert(p.name, p.ty.clone());
    }
    ctx.body(&mut f.body);
    for t in &mut f.ret {
        ctx.subst_type(t);
    }
    let changed = ctx.changed;
    dead::dce_fun(f) || changed
}

/// Consumption and aliasing facts of a function at the start of a round.
struct Facts {
    /// Names bound when the facts were computed.
    known: FxHashSet<VName>,
    consumed: FxHashSet<VName>,
    aliases: FxHashMap<VName, Vec<VName>>,
}

impl Facts {
    fn of(f: &FunDef, sums: &Consumption) -> Facts {
        let info = sums.fun(f);
        let mut known: FxHashSet<VName> = f.params.iter().map(|p| p.name).collect();
        body_binds(&f.body, &mut |v| {
            known.insert(v);
        });
        let aliases = known
            .iter()
            .filter(|v| !info.aliases(**v).is_empty())
            .map(|v| (*v, info.aliases(*v).to_vec()))
            .collect();
        Facts {
            known,
            consumed: info.all_consumed(),
            aliases,
        }
    }
}

/// What the rules know at a statement.
pub struct Ctx<'a> {
    pub names: &'a mut NameSource,
    facts: Facts,
    /// Defining expressions of names bound by one-name statements (basic
    /// operations and histograms).
    defs: FxHashMap<VName, Exp>,
    /// Types of names bound by statements and function parameters.
    types: FxHashMap<VName, Type>,
    /// `v ↦ n`: `0 <= v < n` holds wherever `v` is in scope.
    below: FxHashMap<VName, Operand>,
    /// Replacements of names (copy propagation and CSE).
    subst: FxHashMap<VName, Operand>,
    /// Canonical forms of the statements available in scope, with their
    /// names and the lambda depth where they are bound.
    avail: FxHashMap<String, (Vec<VName>, usize)>,
    /// The keys of `avail` in the order they were added, so that leaving
    /// a body removes what it added (rather than saving a copy of the
    /// table for every body: quadratic for a long chain of branches).
    avail_added: Vec<String>,
    /// How many lambdas (of SOACs and AD operators) enclose the body
    /// being simplified.
    lambda_depth: usize,
    changed: bool,
    budget: usize,
}

impl<'a> Ctx<'a> {
    fn new(names: &'a mut NameSource, facts: Facts) -> Ctx<'a> {
        Ctx {
            names,
            facts,
            defs: FxHashMap::default(),
            types: FxHashMap::default(),
            below: FxHashMap::default(),
            subst: FxHashMap::default(),
            avail: FxHashMap::default(),
            avail_added: Vec::new(),
            lambda_depth: 0,
            changed: false,
            budget: MAX_REWRITES,
        }
    }

    /// Simplifies the statements of `b` in order, then its result.
    fn body(&mut self, b: &mut Body) {
        let outer_avail = self.avail_added.len();
        let mut work: VecDeque<Stm> = std::mem::take(&mut b.stms).into();
        let mut out = Vec::with_capacity(work.len());
        while let Some(mut s) = work.pop_front() {
            self.subst_stm(&mut s);
            self.note_ranges(&s.exp);
            let lambdas = matches!(s.exp, Exp::Soac(_) | Exp::Ad(_));
            self.lambda_depth += usize::from(lambdas);
            visit::each_body_mut(&mut s.exp, |b| self.body(b));
            self.lambda_depth -= usize::from(lambdas);
            if let Some(new) = self.rewrite(&s) {
                for n in new.into_iter().rev() {
                    work.push_front(n);
                }
                continue;
            }
            self.record(&s);
            out.push(s);
        }
        b.stms = out;
        for o in &mut b.result {
            *o = self.operand(*o);
        }
        for k in self.avail_added.drain(outer_avail..) {
            self.avail.remove(&k);
        }
    }

    /// The replacement by the first rule that applies.
    fn rewrite(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        if self.budget == 0 {
            return None;
        }
        for r in RULES {
            if let Some(new) = (r.apply)(self, s) {
                self.budget -= 1;
                self.changed = true;
                return Some(new);
            }
        }
        None
    }

    /// Records what a kept statement tells about its names.
    fn record(&mut self, s: &Stm) {
        for p in &s.pat {
            self.types.insert(p.name, p.ty.clone());
        }
        if let [p] = s.pat.as_slice() {
            if let Exp::Basic(_) | Exp::Soac(Soac::Hist(_)) = s.exp {
                self.defs.insert(p.name, s.exp.clone());
            }
        }
        share::make_available(self, s);
    }

    /// Ranges of loop indices and of the elements of `iota` that a map
    /// binds.
    fn note_ranges(&mut self, e: &Exp) {
        match e {
            Exp::Loop(Loop {
                form: LoopForm::For { i, bound, .. },
                ..
            }) => {
                self.below.insert(*i, *bound);
            }
            Exp::Soac(Soac::Map(Map { lam, arrs, .. }))
            | Exp::Soac(Soac::Screma(Screma { lam, arrs, .. })) => {
                for (p, a) in lam.params.iter().zip(arrs) {
                    if let Some(Exp::Basic(BasicOp::Iota {
                        n,
                        start: Operand::Const(s),
                        step: Operand::Const(d),
                        ..
                    })) = self.defs.get(a)
                    {
                        if parad_core::consts::is_zero(*s) && parad_core::consts::is_one(*d) {
                            self.below.insert(p.name, *n);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    // Facts for the rules.

    /// The defining expression of `v`, if it is a basic operation.
    pub fn def(&self, v: VName) -> Option<&BasicOp> {
        self.defs.get(&v).and_then(Exp::as_basic)
    }

    pub fn def_of(&self, o: Operand) -> Option<&BasicOp> {
        o.var().and_then(|v| self.def(v))
    }

    pub fn type_of(&self, v: VName) -> Option<&Type> {
        self.types.get(&v)
    }

    /// Whether the memory of `v` may be overwritten somewhere in the
    /// function (through it or an alias), or `v` is new this round.
    pub fn may_be_consumed(&self, v: VName) -> bool {
        let f = &self.facts;
        !f.known.contains(&v)
            || f.consumed.contains(&v)
            || f.aliases
                .get(&v)
                .is_some_and(|a| a.iter().any(|x| f.consumed.contains(x)))
    }

    /// Whether `0 <= i < n` is known.
    pub fn in_bounds(&self, i: Operand, n: Operand) -> bool {
        match (i, n) {
            (Operand::Const(c), Operand::Const(m)) => {
                matches!((as_i64(c), as_i64(m)), (Some(c), Some(m)) if 0 <= c && c < m)
            }
            (Operand::Var(v), _) => match self.below.get(&v) {
                Some(b) if *b == n => true,
                Some(Operand::Const(b)) => match (as_i64(*b), n) {
                    (Some(b), Operand::Const(m)) => as_i64(m).is_some_and(|m| b <= m),
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// Replaces `v` by `o` from now on.
    pub fn replace(&mut self, v: VName, o: Operand) {
        self.subst.insert(v, o);
    }

    pub fn fresh(&mut self, base: &str) -> VName {
        self.names.fresh(base)
    }

    // Substitution.

    fn operand(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => self.subst.get(&v).copied().unwrap_or(o),
            c => c,
        }
    }

    fn subst_stm(&self, s: &mut Stm) {
        if !self.subst.is_empty() {
            Substitute(&self.subst).visit_stm(s)
        }
    }

    fn subst_type(&self, t: &mut Type) {
        if !self.subst.is_empty() {
            Substitute(&self.subst).visit_type(t)
        }
    }
}

/// Applies the replacements; a constant replaces a variable in operands
/// and dimensions (positions that only take names keep them).
struct Substitute<'a>(&'a FxHashMap<VName, Operand>);

impl VisitorMut for Substitute<'_> {
    fn visit_operand(&mut self, o: &mut Operand) {
        if let Operand::Var(v) = o {
            if let Some(n) = self.0.get(v) {
                *o = *n
            }
        }
    }
    fn visit_var(&mut self, v: &mut VName) {
        if let Some(Operand::Var(n)) = self.0.get(v) {
            *v = *n
        }
    }
    fn visit_dims(&mut self, dims: &mut [Dim]) {
        for d in dims {
            if let Dim::Var(v) = d {
                match self.0.get(v) {
                    Some(Operand::Var(n)) => *d = Dim::Var(*n),
                    Some(Operand::Const(c)) => {
                        if let Some(k) = as_i64(*c) {
                            *d = Dim::Const(k)
                        }
                    }
                    None => {}
                }
            }
        }
    }
}

// Helpers shared by the rules.

/// The value of an integer constant.
pub fn as_i64(c: parad_base::Scalar) -> Option<i64> {
    parad_interp::prim::as_i64(c)
}

/// `let pat = o` for each name of `s`'s pattern and operand of `os`.
fn bind_all(s: &Stm, os: &[Operand]) -> Vec<Stm> {
    s.pat
        .iter()
        .zip(os)
        .map(|(p, o)| stm(vec![p.clone()], Exp::atom(*o), s))
        .collect()
}

/// A statement at `s`'s place.
fn stm(pat: Vec<Param>, exp: Exp, s: &Stm) -> Stm {
    Stm {
        pat,
        exp,
        span: s.span,
        attrs: vec![],
    }
}

/// `s` with another expression.
fn with_exp(s: &Stm, exp: Exp) -> Stm {
    Stm {
        pat: s.pat.clone(),
        exp,
        span: s.span,
        attrs: s.attrs.clone(),
    }
}

/// Whether `e` can neither fail nor have an effect, and is cheap: scalar
/// operations other than integer division and power, and `size`.
fn cannot_fail(e: &Exp) -> bool {
    use BasicOp as B;
    match e {
        Exp::Basic(B::Atom(_) | B::UnOp(..) | B::Cmp(..) | B::Conv(..) | B::TernOp(..)) => true,
        Exp::Basic(B::Size { .. }) => true,
        Exp::Basic(B::BinOp(op, t, _, _)) => {
            !matches!(t, PrimType::Int(_))
                || !matches!(
                    op,
                    BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow
                )
        }
        _ => false,
    }
}

/// Whether `e` may overwrite memory anywhere inside (directly, or in a
/// called function) or allocates uninitialised memory: two such
/// statements never compute the same value.
fn unshareable(e: &Exp) -> bool {
    fn direct(e: &Exp) -> bool {
        matches!(
            e,
            Exp::Basic(BasicOp::Update { .. } | BasicOp::Upd { .. })
                | Exp::Soac(Soac::Scatter(_) | Soac::Hist(_) | Soac::WithAcc(_))
                | Exp::Apply(_)
                | Exp::Basic(BasicOp::Scratch { .. })
        )
    }
    if direct(e) {
        return true;
    }
    let mut hit = false;
    visit::each_body(e, |b| {
        hit = hit || walk::any_in_body(b, |s| direct(&s.exp));
    });
    hit
}

/// `e` printed with its bound names numbered in order of binding, so that
/// alpha-equivalent expressions print the same.
fn canonical_exp(e: &Exp) -> String {
    let mut e = e.clone();
    Canon::default().visit_exp(&mut e);
    format!("{e:?}")
}

fn canonical_body(b: &Body) -> String {
    let mut b = b.clone();
    Canon::default().visit_body(&mut b);
    format!("{b:?}")
}

#[derive(Default)]
struct Canon(FxHashMap<VName, VName>);

impl VisitorMut for Canon {
    fn visit_stm(&mut self, s: &mut Stm) {
        s.span = parad_base::Span::default();
        self.super_stm(s)
    }
    fn visit_binder(&mut self, v: &mut VName, _: &Type) {
        let c = VName {
            base: Symbol::intern("c"),
            id: self.0.len() as u32,
        };
        self.0.insert(*v, c);
        *v = c;
    }
    fn visit_var(&mut self, v: &mut VName) {
        if let Some(c) = self.0.get(v) {
            *v = *c
        }
    }
}

/// Names bound anywhere inside `e`.
fn bound_in(e: &Exp) -> FxHashSet<VName> {
    let mut s = FxHashSet::default();
    exp_binds(e, &mut |v| {
        s.insert(v);
    });
    s
}
