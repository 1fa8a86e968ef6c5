//! `parad check`: parse and type check, report diagnostics.

use crate::args::CheckArgs;
use crate::Failure;
use parad_driver::Source;

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    Source::read(&args.program)
        .and_then(Source::check)
        .map(|_| ())
        .map_err(|e| Failure::Program(e.render()))
}
