//! SOAC fusion (DESIGN §1: after AD only): `map`, `reduce`, `scan` and
//! `screma` statements of one body become fewer `screma`s, so that
//! intermediate arrays are never built and one loop does the work of
//! several.
//!
//! - *Vertical* ([`vertical`]): a `map` (or a `screma`), the producer,
//!   into a later `map`/`reduce`/`scan`/`screma` of the same width, the
//!   consumer, that reads some of its mapped results as input arrays.
//!   The fused lambda runs the producer's lambda and then the consumer's
//!   on its values. Producer results also needed elsewhere become extra
//!   mapped results of the fused `screma` (and its scans and reductions
//!   stay), so no work is ever done twice.
//! - *Horizontal* ([`horizontal`]): two such SOACs of the same width
//!   where the later does not depend on the earlier become one `screma`
//!   running both lambdas on each row (an array read by both is read
//!   once).
//!
//! Every body is fused, nested ones (lambdas, loop bodies, branches)
//! first, by the generic visitor.
//!
//! # Where the fused statement goes, and why that is sound
//!
//! The fused `screma` takes the later statement's place: the earlier one
//! (and every statement between the two that depends on it) is delayed
//! until then ([`order`]). That keeps the meaning because
//!
//! - what the later statement uses never depends on the delayed
//!   statements (otherwise nothing is fused);
//! - no statement is moved up past an assertion (an assertion among the
//!   delayed statements forbids the fusion): code after an assertion may
//!   rely on it;
//! - a statement is never delayed past one that consumes (updates in
//!   place, scatters into, …: `parad_core::consume`) an array it reads,
//!   nor fused with one that consumes an array the other reads.
//!
//! Widths are equal when they are the same operand after looking through
//! `size` of a SOAC's results, `let` copies and `eq` assertions already
//! passed ([`widths`]).
//!
//! # Limits
//!
//! - A consumer never reads a producer's scanned array or reduction
//!   value row by row (a row of a scan needs all earlier rows; a
//!   reduction's value exists only at the end): only mapped results
//!   link.
//! - `hist` and `scatter` have no lambda in this IR, so a `map` producing
//!   their indices or values is not fused into them; rewriting them into
//!   `withacc` with `upd` would be needed first.
//! - An accumulator never links two fused statements (the order of its
//!   updates could change what an overwriting accumulator holds), two
//!   statements both taking accumulators are not fused vertically (the
//!   backend pairs accumulator results with accumulator inputs in
//!   order), and no fusion gives a `screma` with scans or reductions
//!   accumulator inputs (the backend would update them atomically
//!   instead of in per-thread copies).

mod deps;
mod horizontal;
mod order;
mod soac;
mod vertical;
mod widths;

use deps::Facts;
use parad_core::consume::Consumption;
use parad_core::visit::VisitorMut;
use parad_core::*;
use widths::Widths;

/// Fuses every function of `prog`.
pub fn fuse_program(prog: &mut Program) {
    let sums = Consumption::of_program(prog);
    let mut names = std::mem::take(&mut prog.names);
    for f in &mut prog.funs {
        let widths = Widths::of_fun(f);
        let mut fuser = Fuser {
            names: &mut names,
            sums: &sums,
            widths: &widths,
            eqs: vec![],
        };
        fuser.visit_body(&mut f.body);
    }
    prog.names = names;
}

/// Fuses bodies innermost first, tracking the width equalities that the
/// assertions already passed establish.
struct Fuser<'a> {
    names: &'a mut NameSource,
    sums: &'a Consumption,
    widths: &'a Widths,
    /// Equalities asserted before the statement being visited, in this
    /// body and the enclosing ones.
    eqs: Vec<(Operand, Operand)>,
}

impl VisitorMut for Fuser<'_> {
    fn visit_body(&mut self, b: &mut Body) {
        let outer = self.eqs.len();
        for s in &mut b.stms {
            self.visit_stm(s);
            if let Some(eq) = self.widths.asserted(s) {
                self.eqs.push(eq);
            }
        }
        self.eqs.truncate(outer);
        self.fuse_body(b);
    }
}

impl Fuser<'_> {
    /// Fuses pairs of statements of `b` until none is left: vertical
    /// fusion first (horizontal fusion of a producer with a reduction
    /// would make it unfusable into its consumer).
    fn fuse_body(&mut self, b: &mut Body) {
        widths::sizes_of_results(b);
        loop {
            let facts = Facts::of_body(b, self.sums);
            if let Some(new) = vertical::fuse_one(b, &facts, self) {
                b.stms = new;
                continue;
            }
            if let Some(new) = horizontal::fuse_one(b, &facts, self) {
                b.stms = new;
                continue;
            }
            break;
        }
    }

    /// The width equalities asserted before statement `j` of `body`.
    fn eqs_at(&self, body: &Body, j: usize) -> Vec<(Operand, Operand)> {
        let mut eqs = self.eqs.clone();
        eqs.extend(
            body.stms[..j]
                .iter()
                .filter_map(|s| self.widths.asserted(s)),
        );
        eqs
    }
}
