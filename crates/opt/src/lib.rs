//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`simplify`](mod@simplify): the rule-based simplifier (folding,
//!   copy propagation, CSE, DCE, index, SOAC, branch and loop rules);
//! - [`cse`]: the older CSE of cheap scalar statements, which [`acc_red`]
//!   runs between its rounds;
//! - [`acc_red`]: accumulator updates to reductions (after AD);
//! - [`hoist`]: map-invariant code motion (after AD);
//! - [`fuse`]: SOAC fusion into `screma` (after AD);
//! - [`copies`]: copies the consumption rules do not need, removed (after AD).

pub mod acc_red;
pub mod copies;
pub mod cse;
pub mod fuse;
pub mod hoist;
pub mod simplify;

use parad_core::Program;

/// The rule-based simplifier ([`simplify::simplify_program`]), run
/// before AD, after AD and after fusion.
pub fn simplify(prog: &mut Program) {
    simplify::simplify_program(prog);
}

/// The optimisation after AD, before fusion: [`simplify`], the
/// accumulator → reduction rewrite (on the simplified AD output, whose
/// dead forward sweeps are gone; it also turns accumulators written once
/// per element into maps), invariant code motion out of maps, and
/// [`simplify`] again (hoisting lines up copies of the same computation
/// for CSE).
pub fn optimise_after_ad(prog: &mut Program) {
    simplify(prog);
    acc_red::acc_red_program(prog);
    hoist::hoist_program(prog);
    simplify(prog);
}

/// Fusion into `screma`, then [`simplify`] on the fused program.
pub fn fuse(prog: &mut Program) {
    fuse::fuse_program(prog);
    simplify(prog);
}

/// Copies the consumption rules do not need, removed (after AD: the
/// program is checked as it stands then).
pub fn remove_copies(prog: &mut Program) {
    copies::remove_copies(prog, parad_core::Stage::AfterAd);
}

/// Everything after AD, in the driver's order: [`optimise_after_ad`],
/// [`fuse`] and [`remove_copies`] (last, so that the uses the other
/// passes remove no longer hold copies in place).
pub fn optimise(prog: &mut Program) {
    optimise_after_ad(prog);
    fuse(prog);
    remove_copies(prog);
}
