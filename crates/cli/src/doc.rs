//! `parad doc`: HTML documentation of a folder of Futhark files (or one
//! file) and what they import, as `futhark doc` makes it; the work is
//! done by the `parad-doc` crate.
//!
//! The whole documentation is made in memory first, so a program that
//! does not type check leaves the output folder untouched.

use crate::args::DocArgs;
use crate::Failure;
use std::io::Write;

pub fn doc(args: &DocArgs) -> Result<(), Failure> {
    let verbose = args.verbose;
    let mut log = |line: &str| {
        if verbose {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    };
    let out = parad_doc::generate(&args.input, &mut log).map_err(to_failure)?;
    for w in &out.warnings {
        let _ = writeln!(std::io::stderr().lock(), "{w}");
    }
    parad_doc::write(&out, &args.output, &mut log).map_err(to_failure)
}

fn to_failure(e: parad_doc::DocError) -> Failure {
    match e {
        parad_doc::DocError::Input(m) => Failure::msg(m),
        parad_doc::DocError::Program(m) => Failure::Program(m),
    }
}
