//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`cse`]: common-subexpression elimination;
//! - [`dce`]: dead-code elimination;
//! - [`subst`]: renaming of uses.

pub mod cse;
pub mod dce;
pub mod subst;

use parad_core::Program;

/// The simplification pipeline applied between stages.
pub fn simplify(prog: &mut Program) {
    for f in &mut prog.funs {
        cse::cse_fun(f);
        dce::dce_fun(f);
    }
}
