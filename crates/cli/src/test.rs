//! `parad test`: run the test blocks of programs.
//!
//! Files are tested `--concurrency` at a time (default: one per core), each
//! file's report printed whole when it finishes; on a terminal a progress
//! bar on standard error counts the files and the outcomes so far.

use crate::args::{BackendKind, TestArgs};
use crate::out::ExitOnError;
use crate::Failure;
use parad_driver::Config;
use parad_testrun::{find_fut_files, run_files_concurrently, Mode, Options, Summary};
use std::io::{IsTerminal, Write};

pub fn test(args: &TestArgs) -> Result<(), Failure> {
    let files = find_fut_files(&args.paths).map_err(Failure::msg)?;
    let pass = PassOptions::parse(&args.pass_option)?;
    let kind = match (args.interpreted, args.compiled, args.backend) {
        (true, _, _) => BackendKind::Interp,
        (_, true, BackendKind::Interp) => BackendKind::Multicore,
        (_, _, kind) => kind,
    };
    let threads = pass.threads.or(args.threads.map(|n| n as usize));
    let backend = kind.backend(Config::default(), threads, pass.tuning);
    let mode = if args.type_check {
        Mode::TypeCheck
    } else if args.compile_only {
        Mode::Compile
    } else {
        Mode::Run
    };
    let options = Options {
        exclude: args.exclude.clone(),
        entry: args.entry.clone(),
        include_compiled: args.include_compiled,
        mode,
        seed: args.seed,
        tuning: (!args.no_tuning).then(|| args.tuning.clone()),
    };
    let concurrency = args
        .concurrency
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bar = (!args.no_terminal && std::io::stderr().is_terminal()).then(|| progress(files.len()));
    let mut stdout = ExitOnError(std::io::stdout().lock());
    let mut so_far = Summary::default();
    let summary = run_files_concurrently(
        backend.as_ref(),
        &files,
        &options,
        concurrency,
        &mut |report| {
            so_far.add(report.summary);
            let mut print = || {
                let _ = stdout.write_all(&report.output);
                let _ = stdout.flush();
            };
            match &bar {
                Some(bar) => {
                    bar.suspend(print);
                    bar.set_message(format!("{so_far}"));
                    bar.inc(1);
                }
                None => print(),
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let _ = writeln!(stdout, "{summary}");
    let _ = stdout.flush();
    if summary.failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// A progress bar over `files` files, drawn on standard error.
fn progress(files: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(files as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("[{elapsed}] {wide_bar} {pos}/{len} files: {msg}")
    {
        bar.set_style(style);
    }
    bar
}

/// The options `--pass-option` gives the programs being run. Futhark
/// passes them to the compiled executables; parad runs compiled programs
/// in its own process, so it accepts those of the executables' options
/// that mean something there, and refuses the rest (rather than ignoring
/// what the user asked for).
#[derive(Debug, Default, PartialEq)]
pub struct PassOptions {
    /// `--num-threads=N` (or `--num-threads N`): threads of compiled
    /// programs, as Futhark's multicore executables take it.
    pub threads: Option<usize>,
    /// `--tuning=FILE` and `--param=NAME=INT`, in the order given.
    pub tuning: parad_driver::Tuning,
}

/// A tuning file (`--tuning FILE`) read.
pub fn read_tuning_file(file: &std::path::Path) -> Result<parad_driver::Tuning, Failure> {
    parad_driver::read_tuning(file).map_err(Failure::msg)
}

impl PassOptions {
    pub fn parse(options: &[String]) -> Result<PassOptions, Failure> {
        let mut out = PassOptions::default();
        // Each `--pass-option` is one word; an option and its value may
        // come in one (`--num-threads=4`) or in two of them.
        let words: Vec<&str> = options.iter().flat_map(|o| o.split_whitespace()).collect();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let (name, value) = match w.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (w, None),
            };
            let mut value = || match value {
                Some(v) => Ok(v),
                None => {
                    i += 1;
                    words.get(i).copied().ok_or_else(|| {
                        Failure::Usage(format!("--pass-option {name} needs a value"))
                    })
                }
            };
            match name {
                "--param" | "-p" => {
                    let value = value()?;
                    let p = parad_driver::parse_param(value)
                        .map_err(|e| Failure::Usage(format!("--pass-option --param: {e}")))?;
                    out.tuning.push(p);
                }
                "--tuning" => {
                    let value = value()?;
                    out.tuning
                        .extend(read_tuning_file(std::path::Path::new(value))?);
                }
                "--num-threads" => {
                    let value = value()?;
                    let n: usize = value.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                        Failure::Usage(format!(
                            "--pass-option --num-threads: `{value}` is not a positive number"
                        ))
                    })?;
                    out.threads = Some(n);
                }
                _ => {
                    return Err(Failure::Usage(format!(
                        "--pass-option `{w}`: parad runs compiled programs in its own \
                         process, where the options of Futhark's executables that \
                         apply are --num-threads=N, --param=NAME=INT and --tuning=FILE"
                    )))
                }
            }
            i += 1;
        }
        Ok(out)
    }
}
