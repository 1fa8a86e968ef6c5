//! `parad check`: parse and type check (or read and check printed IR),
//! report diagnostics.

use crate::args::CheckArgs;
use crate::Failure;
use parad_driver::{Config, Source};

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let source = Source::read(&args.program).map_err(|e| Failure::Program(e.render()))?;
    let checked = if source.is_printed_ir() {
        // Printed IR: read it and run the IR checker, no pass.
        let config = Config::new().with_check_ir(true);
        source.read_ir(&config).map(|_| ())
    } else {
        source.check().map(|_| ())
    };
    checked.map_err(|e| Failure::Program(e.render()))
}
