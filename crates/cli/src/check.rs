//! `parad check`: parse and type check, report diagnostics.

use crate::args::CheckArgs;
use crate::pipeline::load_program;
use crate::Failure;

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    load_program(&args.program)
        .map(|_| ())
        .map_err(Failure::Program)
}
