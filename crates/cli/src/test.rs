//! `parad test`: run the test blocks of programs.

use crate::args::TestArgs;
use crate::out::ExitOnError;
use crate::Failure;
use parad_driver::Config;
use parad_testrun::{find_fut_files, run_files, Options};
use std::io::Write;

pub fn test(args: &TestArgs) -> Result<(), Failure> {
    let files = find_fut_files(&args.paths).map_err(Failure::msg)?;
    let backend = args
        .backend
        .backend(Config::default(), args.threads.map(|n| n as usize));
    let backend = backend.as_ref();
    let options = Options {
        exclude: args.exclude.clone(),
        entry: args.entry.clone(),
        include_compiled: args.include_compiled,
    };
    let mut stdout = ExitOnError(std::io::stdout().lock());
    let summary = run_files(backend, &files, &options, &mut stdout);
    let _ = writeln!(stdout, "{summary}");
    let _ = stdout.flush();
    if summary.failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
