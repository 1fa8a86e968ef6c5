//! `parad bench`: time entry points on their test datasets.
//!
//! The programs are first compiled `--concurrency` at a time (into the
//! backend's cache), then timed one after the other, so that timings do
//! not compete with each other for the cores.

use crate::args::BenchArgs;
use crate::out::ExitOnError;
use crate::test::PassOptions;
use crate::Failure;
use parad_driver::Config;
use parad_testrun::{bench::to_json, bench_files, find_fut_files, prepare, BenchOptions};
use std::io::Write;

pub fn bench(args: &BenchArgs) -> Result<(), Failure> {
    let mut files = find_fut_files(&args.paths).map_err(Failure::msg)?;
    let ignore = args
        .ignore_files
        .iter()
        .map(|r| {
            regex::Regex::new(r).map_err(|e| Failure::Usage(format!("--ignore-files `{r}`: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    files.retain(|f| {
        let shown = f.to_string_lossy();
        !ignore.iter().any(|r| r.is_match(&shown))
    });
    let pass = PassOptions::parse(&args.pass_option)?;
    let threads = pass.threads.or(args.threads.map(|n| n as usize));
    let backend = args
        .backend
        .backend(Config::default(), threads, pass.tuning);
    let backend = backend.as_ref();
    let options = BenchOptions {
        runs: args.runs as usize,
        exclude: args.exclude.clone(),
        entry: args.entry.clone(),
        tuning: (!args.no_tuning).then(|| args.tuning.clone()),
    };
    let concurrency = args
        .concurrency
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    prepare(backend, &files, &options, concurrency);
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
