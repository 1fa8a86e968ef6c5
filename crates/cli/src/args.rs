//! The command line, as clap parses it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "parad",
    version,
    about = "A Futhark compiler centred on automatic differentiation"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Parse and type check a program.
    Check(CheckArgs),
    /// Run an entry point with arguments read from standard input.
    Run(RunArgs),
    /// Run the test blocks (`-- ==`) of programs.
    Test(TestArgs),
    /// Time entry points on the datasets of their test blocks.
    Bench(BenchArgs),
    /// Print the program as one stage of the compiler sees it.
    Dump(DumpArgs),
}

#[derive(Args)]
pub struct CheckArgs {
    /// The program (`.fut` file).
    pub program: PathBuf,
}

/// How programs are executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendKind {
    /// The reference interpreter.
    Interp,
}

#[derive(Args)]
pub struct RunArgs {
    /// The program (`.fut` file).
    pub program: PathBuf,
    /// The entry point to call.
    #[arg(short = 'e', long = "entry-point", default_value = "main")]
    pub entry: String,
    /// Print results in Futhark's binary data format.
    #[arg(short = 'b', long = "binary-output")]
    pub binary: bool,
    #[arg(long, value_enum, default_value = "interp")]
    pub backend: BackendKind,
}

#[derive(Args)]
pub struct TestArgs {
    /// Programs, or directories searched recursively for `.fut` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "interp")]
    pub backend: BackendKind,
    /// Skip files and cases with this tag (may be repeated).
    #[arg(long, value_name = "TAG")]
    pub exclude: Vec<String>,
    /// Run only this entry point.
    #[arg(long = "entry-point", value_name = "NAME")]
    pub entry: Option<String>,
    /// Also run cases marked `compiled` (skipped by default on the
    /// interpreter, as Futhark's interpreter does: they can be slow).
    #[arg(long)]
    pub include_compiled: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Programs, or directories searched recursively for `.fut` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "interp")]
    pub backend: BackendKind,
    /// Timed runs per dataset (after one warm-up run).
    #[arg(short = 'r', long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Write the measurements as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Skip datasets and files with this tag (may be repeated).
    #[arg(long = "exclude-case", value_name = "TAG")]
    pub exclude: Vec<String>,
    /// Run only this entry point.
    #[arg(long = "entry-point", value_name = "NAME")]
    pub entry: Option<String>,
}

/// A compiler stage whose output `dump` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Stage {
    /// The syntax tree as parsed.
    Ast,
    /// Core IR after lowering.
    Core,
    /// Core IR after automatic differentiation.
    Ad,
    /// Core IR after optimisation.
    Opt,
}

#[derive(Args)]
pub struct DumpArgs {
    #[arg(long, value_enum)]
    pub stage: Stage,
    /// The program (`.fut` file).
    pub program: PathBuf,
}
