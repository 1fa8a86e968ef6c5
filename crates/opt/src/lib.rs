//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`acc_red`]: accumulator updates to reductions (after AD);
//! - [`cse`]: common-subexpression elimination;
//! - [`dce`]: dead-code elimination;
//! - [`hoist`]: map-invariant code motion (after AD).

pub mod acc_red;
pub mod cse;
pub mod dce;
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
/// for CSE).
pub fn optimise(prog: &mut Program) {
    simplify(prog);
    acc_red::acc_red_program(prog);
    hoist::hoist_program(prog);
    simplify(prog);
}
