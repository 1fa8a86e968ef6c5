//! `parad test`: run the test blocks of programs.

use crate::args::{BackendKind, TestArgs};
use crate::Failure;
use parad_driver::{Backend, Interp};
use parad_testrun::{find_fut_files, run_files, Options};
use std::io::Write;

pub fn test(args: &TestArgs) -> Result<(), Failure> {
    let files = find_fut_files(&args.paths).map_err(Failure::msg)?;
    let backend: &dyn Backend = match args.backend {
        BackendKind::Interp => &Interp::default(),
    };
    let options = Options {
        exclude: args.exclude.clone(),
        entry: args.entry.clone(),
        include_compiled: args.include_compiled,
    };
    let mut stdout = std::io::stdout().lock();
    let summary = run_files(backend, &files, &options, &mut stdout);
    let _ = writeln!(stdout, "{summary}");
    if summary.failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
