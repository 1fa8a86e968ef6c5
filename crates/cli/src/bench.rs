//! `parad bench`: time entry points on their test datasets.

use crate::args::BenchArgs;
use crate::out::ExitOnError;
use crate::Failure;
use parad_driver::Config;
use parad_testrun::{bench::to_json, bench_files, find_fut_files, BenchOptions};
use std::io::Write;

pub fn bench(args: &BenchArgs) -> Result<(), Failure> {
    let files = find_fut_files(&args.paths).map_err(Failure::msg)?;
    let backend = args
        .backend
        .backend(Config::default(), args.threads.map(|n| n as usize));
    let backend = backend.as_ref();
    let options = BenchOptions {
        runs: args.runs as usize,
        exclude: args.exclude.clone(),
        entry: args.entry.clone(),
    };
    let mut stdout = ExitOnError(std::io::stdout().lock());
    let report = bench_files(backend, &files, &options, &mut stdout);
    let _ = stdout.flush();
    if let Some(path) = &args.json {
        std::fs::write(path, to_json(&report.results))
            .map_err(|e| Failure::msg(format!("cannot write {}: {e}", path.display())))?;
    }
    if report.failures > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
