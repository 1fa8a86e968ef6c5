//! The core-IR passes, as a list of named values.
//!
//! The pipeline is data so that every user runs the same one (the
//! command-line tool, the test runner, benchmarks, test harnesses), so
//! that `parad dump` can stop after any pass by name, and so that the IR
//! checker and dumps run between passes in one place
//! ([`crate::pipeline::run_passes`]) instead of in each caller.
//!
//! A pass works on a [`Compiled`] rather than a bare `Program` because a
//! pass may leave out an entry point it cannot handle (AD does, per entry
//! function) and record why, while the others go on.

use crate::error::DriverError;
use crate::pipeline::{Compiled, LeftOut};
use parad_base::Diagnostic;
use parad_core::Program;
use std::fmt;

/// A named transformation of the core program.
#[derive(Clone, Copy)]
pub struct Pass {
    /// The name `parad dump --stage` and `--dump-after` use.
    pub name: &'static str,
    /// What the pass does, for messages: "the IR after {what}".
    pub what: &'static str,
    pub run: fn(&mut Compiled) -> Result<(), DriverError>,
}

impl fmt::Debug for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pass({})", self.name)
    }
}

/// The name of the front end's output (parse, type check and lowering to
/// core IR): the stage before every [`Pass`].
pub const LOWER: &str = "lower";

/// What the front end's step is called in messages.
pub(crate) const LOWER_WHAT: &str = "lowering";

/// Simplification (`parad_opt::simplify`) before AD.
pub const SIMPLIFY: Pass = Pass {
    name: "simplify",
    what: "simplification",
    run: simplify,
};

/// Expansion of `jvp`/`vjp` nodes, one entry function at a time.
pub const DIFFERENTIATE: Pass = Pass {
    name: "differentiate",
    what: "automatic differentiation",
    run: differentiate_each,
};

/// Simplification, the accumulator → reduction rewrite, map-invariant
/// code motion and simplification again, after AD
/// (`parad_opt::optimise_after_ad`).
pub const OPTIMISE: Pass = Pass {
    name: "optimise",
    what: "optimisation after AD",
    run: optimise,
};

/// Fusion of SOACs into `screma`, then simplification (after AD only:
/// the AD rules work on the plain SOACs).
pub const FUSE: Pass = Pass {
    name: "fuse",
    what: "fusion",
    run: fuse,
};

/// Removal of the copies the consumption rules do not need.
pub const COPIES: Pass = Pass {
    name: "copies",
    what: "copy removal",
    run: copies,
};

/// The default pipeline after the front end, in order.
pub const PASSES: &[Pass] = &[SIMPLIFY, DIFFERENTIATE, OPTIMISE, FUSE, COPIES];

/// The pass of the default pipeline called `name`.
pub fn pass(name: &str) -> Option<Pass> {
    PASSES.iter().find(|p| p.name == name).copied()
}

/// Names after which the IR can be dumped: [`LOWER`] and every pass of the
/// default pipeline, in pipeline order.
pub fn pass_names() -> Vec<&'static str> {
    std::iter::once(LOWER)
        .chain(PASSES.iter().map(|p| p.name))
        .collect()
}

fn simplify(c: &mut Compiled) -> Result<(), DriverError> {
    parad_opt::simplify(&mut c.program);
    Ok(())
}

fn optimise(c: &mut Compiled) -> Result<(), DriverError> {
    parad_opt::optimise_after_ad(&mut c.program);
    Ok(())
}

fn fuse(c: &mut Compiled) -> Result<(), DriverError> {
    parad_opt::fuse(&mut c.program);
    Ok(())
}

fn copies(c: &mut Compiled) -> Result<(), DriverError> {
    parad_opt::remove_copies(&mut c.program);
    Ok(())
}

/// Runs AD on each function separately, so that one entry point AD cannot
/// handle yet does not stop the others: its entries are left out with the
/// reason. A failing function that no entry point names fails the pass
/// (leaving it out silently would break its callers).
fn differentiate_each(c: &mut Compiled) -> Result<(), DriverError> {
    c.differentiated = true;
    let program = &mut c.program;
    let funs = std::mem::take(&mut program.funs);
    let mut failure = None;
    for f in funs {
        let mut single = Program {
            funs: vec![f],
            entries: vec![],
            names: program.names.clone(),
            frames: vec![],
        };
        match parad_ad::differentiate(&mut single) {
            Ok(()) => {
                program.names = single.names;
                program.funs.extend(single.funs);
            }
            Err(e) => {
                let reason = Diagnostic::error(e.span, e.message);
                let name = single.funs[0].name;
                let entries: Vec<String> = program
                    .entries
                    .iter()
                    .filter(|e| e.fun == name)
                    .map(|e| e.name.clone())
                    .collect();
                if entries.is_empty() {
                    failure.get_or_insert(reason);
                    program.funs.extend(single.funs);
                    continue;
                }
                program.entries.retain(|e| e.fun != name);
                c.left_out.extend(entries.into_iter().map(|entry| LeftOut {
                    entry,
                    pass: DIFFERENTIATE.name,
                    reason: reason.clone(),
                }));
            }
        }
    }
    match failure {
        None => Ok(()),
        Some(reason) => Err(DriverError::Unsupported(crate::error::Message::diagnostic(
            reason, &c.sources,
        ))),
    }
}
