//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`cse`]: common-subexpression elimination;
//! - [`dce`]: dead-code elimination;
//! - [`hoist`]: map-invariant code motion (after AD);
//! - [`copies`]: copies the consumption rules do not need, removed (after AD);
//! - [`fuse`]: SOAC fusion into `screma` (after AD).

pub mod copies;
pub mod cse;
pub mod dce;
pub mod fuse;
pub mod hoist;

use parad_core::Program;

/// The simplification pipeline applied between stages.
pub fn simplify(prog: &mut Program) {
    for f in &mut prog.funs {
        cse::cse_fun(f);
        dce::dce_fun(f);
    }
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
