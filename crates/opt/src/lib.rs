//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`simplify`](mod@simplify): the rule-based simplifier (folding,
//!   copy propagation, CSE, DCE, index, SOAC, branch and loop rules);
//! - [`cse`], [`dce`]: the older single-purpose passes, kept for their
//!   tests;
//! - [`hoist`]: map-invariant code motion (after AD);
//! - [`copies`]: copies the consumption rules do not need, removed (after AD);
//! - [`fuse`]: SOAC fusion into `screma` (after AD).

pub mod copies;
pub mod cse;
pub mod dce;
pub mod fuse;
pub mod hoist;
pub mod simplify;

use parad_core::Program;

/// The rule-based simplifier ([`simplify::simplify_program`]), run
/// before AD, after AD and after fusion.
pub fn simplify(prog: &mut Program) {
    simplify::simplify_program(prog);
}

/// [`simplify`], then invariant code motion out of maps, then
/// [`simplify`] again (hoisting lines up copies of the same computation
/// for CSE), then needless copies removed, then fusion and [`simplify`]
/// once more.
pub fn optimise(prog: &mut Program) {
    simplify(prog);
    hoist::hoist_program(prog);
    simplify(prog);
    copies::remove_copies(prog, parad_core::Stage::AfterAd);
    fuse::fuse_program(prog);
    simplify(prog);
}
