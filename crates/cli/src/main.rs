//! `parad`: the command-line tool of the parad Futhark compiler.
//!
//! Exit codes: 0 success, 1 an error in the program or its input (or a
//! failed test), 2 a usage error.

mod args;
mod bench;
mod check;
mod compile;
mod dataset;
mod doc;
mod dump;
mod fmt;
mod literate;
mod oom;
mod out;
mod pkg;
mod repl;
mod run;
mod test;

use args::{Cli, Command};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// A command's failure and how to report it.
pub enum Failure {
    /// An error in the program or its input; the text is printed to
    /// stderr as is (rendered diagnostics or an `error:` line).
    Program(String),
    /// Already reported (e.g. failed tests): exit 1 without more output.
    Reported,
    /// The command line asked for something impossible: exit 2.
    Usage(String),
}

impl Failure {
    /// An error message without source location.
    pub fn msg(text: impl std::fmt::Display) -> Failure {
        Failure::Program(format!("error: {text}\n"))
    }
}

/// Stack of the thread that runs a command. The passes of the compiler and
/// the interpreter recurse over the program's syntax tree and IR, whose
/// depth the user controls (a long chain of `+` is a tree as deep as the
/// chain); the parser bounds nesting, but the 8 MiB main thread is not
/// enough for every pass at that bound. Only touched pages are committed.
const STACK_SIZE: usize = 1 << 30;

#[global_allocator]
static ALLOC: oom::NoteFailures = oom::NoteFailures;

fn main() -> ExitCode {
    oom::install();
    let cli = Cli::parse();
    // Run on a thread with a big stack; on the main thread if none starts.
    let worker = std::thread::Builder::new()
        .name("parad".into())
        .stack_size(STACK_SIZE)
        .spawn(move || command(cli));
    match worker {
        Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
        Err(_) => command(Cli::parse()),
    }
}

fn command(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Check(a) => check::check(&a),
        Command::Run(a) => run::run(&a),
        Command::Test(a) => test::test(&a),
        Command::Bench(a) => bench::bench(&a),
        Command::Dump(a) => dump::dump(&a),
        Command::Doc(a) => doc::doc(&a),
        Command::Fmt(a) => fmt::fmt(&a),
        Command::Pkg(a) => pkg::pkg(&a),
        Command::Dataset(_) => dataset::dataset(),
        Command::C(a) => compile::compile(&a, parad_cgen::api::Flavour::C),
        Command::Multicore(a) => compile::compile(&a, parad_cgen::api::Flavour::Multicore),
        Command::Repl(a) => repl::repl(&a),
        Command::Literate(a) => literate::literate(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => ExitCode::from(report(f)),
    }
}

/// Reports a failure on standard error (a failure to write there is
/// ignored: there is nowhere left to say it) and returns the exit status.
pub fn report(failure: Failure) -> u8 {
    let mut stderr = std::io::stderr().lock();
    match failure {
        Failure::Program(text) => {
            let _ = stderr.write_all(text.as_bytes());
            1
        }
        Failure::Reported => 1,
        Failure::Usage(text) => {
            let _ = writeln!(stderr, "error: {text}");
            2
        }
    }
}
