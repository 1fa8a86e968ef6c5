//! Optimisation of core IR (DESIGN §1, stage `opt`), run after lowering
//! and again after AD.
//!
//! - [`dce`]: dead-code elimination.

pub mod dce;

use parad_core::Program;

/// The simplification pipeline applied between stages.
pub fn simplify(prog: &mut Program) {
    for f in &mut prog.funs {
        dce::dce_fun(f);
    }
}
