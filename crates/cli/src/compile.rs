//! `parad c` and `parad multicore`: a program compiled into an executable,
//! a server or a library with Futhark's C API, as `futhark c` and
//! `futhark multicore` make them.

use crate::args::CompileArgs;
use crate::Failure;
use parad_cgen::api::Flavour;
use parad_driver::export::{export_file, Output};
use parad_driver::Config;

pub fn compile(args: &CompileArgs, flavour: Flavour) -> Result<(), Failure> {
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.program.with_extension(""));
    if output == args.program {
        return Err(Failure::Usage(format!(
            "the output {} would overwrite the program; give another name with -o",
            output.display()
        )));
    }
    let kind = if args.library {
        Output::Library
    } else if args.server {
        Output::Server
    } else {
        Output::Executable
    };
    let exported = export_file(&args.program, &Config::default(), flavour, kind, &output)
        .map_err(|e| Failure::Program(e.render()))?;
    for (entry, why) in &exported.left_out {
        eprint!("warning: entry point {entry} is left out of the compiled program:\n{why}");
    }
    Ok(())
}
