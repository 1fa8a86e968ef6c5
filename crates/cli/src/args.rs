//! The command line, as clap parses it.

use clap::builder::{PossibleValue, PossibleValuesParser};
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
    /// Futhark's package manager: packages as git repositories, listed in
    /// `futhark.pkg` and installed under `lib/`.
    Pkg(PkgArgs),
    /// Generate random values, or convert values between the text and
    /// binary formats (Futhark's `dataset`).
    Dataset(DatasetArgs),
    /// Compile to sequential C: an executable, a server or a library with
    /// Futhark's C API.
    C(CompileArgs),
    /// Compile to parallel C (threads): an executable, a server or a
    /// library with Futhark's C API.
    Multicore(CompileArgs),
    /// An interactive session (Futhark's `repl`): declarations and
    /// expressions evaluated by the interpreter as they are typed.
    Repl(ReplArgs),
    /// Write HTML documentation of a folder of Futhark files (or a file)
    /// and the files they import.
    Doc(DocArgs),
    /// Format programs in place (or standard input to standard output).
    Fmt(FmtArgs),
    /// Write PROG.md from a literate program PROG.fut: its comments as
    /// Markdown, its code, and the output of its `-- >` directives
    /// (values, images, plots, animations, sounds in PROG-img/).
    Literate(LiterateArgs),
}

/// `parad literate PROG.fut`.
#[derive(Args)]
pub struct LiterateArgs {
    /// The literate program (`.fut` file).
    pub program: PathBuf,
    /// The backend that runs the directives (default: `PARAD_BACKEND`,
    /// else `multicore`).
    #[arg(long, value_enum, env = "PARAD_BACKEND", default_value = "multicore")]
    pub backend: BackendKind,
    /// The Markdown file to write (default: the program's name with
    /// `.md`); the files go to its name without extension plus `-img/`.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Stop at the first directive that fails, writing no document.
    #[arg(long)]
    pub stop_on_error: bool,
    /// Say on standard error what is compiled and which directive runs.
    #[arg(short = 'v', long)]
    pub verbose: bool,
}

#[derive(Args)]
pub struct FmtArgs {
    /// The programs to format in place; none: read standard input and
    /// write the formatted program to standard output.
    pub files: Vec<PathBuf>,
    /// Change nothing; list the files that are not formatted and exit
    /// with status 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

#[derive(Args)]
pub struct DocArgs {
    /// The folder (every `.fut` file under it) or file to document.
    pub input: PathBuf,
    /// The folder the HTML pages are written to.
    #[arg(short = 'o', value_name = "OUTDIR", required = true)]
    pub output: PathBuf,
    /// Print status messages to standard error.
    #[arg(short = 'v', long)]
    pub verbose: bool,
}

/// `parad repl [FILE]`.
#[derive(Args)]
pub struct ReplArgs {
    /// A Futhark file whose declarations the session starts with.
    pub program: Option<PathBuf>,
}

#[derive(Args)]
pub struct CompileArgs {
    /// The program (`.fut` file).
    pub program: PathBuf,
    /// The name of the output (default: the program's name without `.fut`).
    #[arg(short = 'o', value_name = "NAME")]
    pub output: Option<PathBuf>,
    /// Write a library: NAME.c, NAME.h and the manifest NAME.json.
    #[arg(long, conflicts_with = "server")]
    pub library: bool,
    /// Build a server that speaks Futhark's server protocol.
    #[arg(long)]
    pub server: bool,
}

/// The options of `parad dataset` apply in order: `-b`, `--text`, `-t` and
/// the bounds affect the `-g` options after them.
#[derive(Args)]
pub struct DatasetArgs {
    /// Generate a random value of this type (`[10][3]f32`), or write this
    /// literal value (`10i64`). Repeatable.
    #[arg(short = 'g', long = "generate", value_name = "TYPE")]
    pub generate: Vec<String>,
    /// Write values in Futhark's binary format.
    #[arg(short = 'b', long, action = clap::ArgAction::Count)]
    pub binary: u8,
    /// Write values as text (the default).
    #[arg(long, action = clap::ArgAction::Count)]
    pub text: u8,
    /// Write the values' types instead of the values.
    #[arg(short = 't', long = "type", action = clap::ArgAction::Count)]
    pub types: u8,
    /// The seed of the random values.
    #[arg(short = 's', long, default_value_t = 1)]
    pub seed: u64,
    /// Inclusive bounds of generated i8 values (for the following `-g`).
    #[arg(long = "i8-bounds", value_name = "MIN:MAX")]
    pub i8_bounds: Vec<String>,
    /// Inclusive bounds of generated i16 values (for the following `-g`).
    #[arg(long = "i16-bounds", value_name = "MIN:MAX")]
    pub i16_bounds: Vec<String>,
    /// Inclusive bounds of generated i32 values (for the following `-g`).
    #[arg(long = "i32-bounds", value_name = "MIN:MAX")]
    pub i32_bounds: Vec<String>,
    /// Inclusive bounds of generated i64 values (for the following `-g`).
    #[arg(long = "i64-bounds", value_name = "MIN:MAX")]
    pub i64_bounds: Vec<String>,
    /// Inclusive bounds of generated u8 values (for the following `-g`).
    #[arg(long = "u8-bounds", value_name = "MIN:MAX")]
    pub u8_bounds: Vec<String>,
    /// Inclusive bounds of generated u16 values (for the following `-g`).
    #[arg(long = "u16-bounds", value_name = "MIN:MAX")]
    pub u16_bounds: Vec<String>,
    /// Inclusive bounds of generated u32 values (for the following `-g`).
    #[arg(long = "u32-bounds", value_name = "MIN:MAX")]
    pub u32_bounds: Vec<String>,
    /// Inclusive bounds of generated u64 values (for the following `-g`).
    #[arg(long = "u64-bounds", value_name = "MIN:MAX")]
    pub u64_bounds: Vec<String>,
    /// Inclusive bounds of generated f16 values (for the following `-g`).
    #[arg(long = "f16-bounds", value_name = "MIN:MAX")]
    pub f16_bounds: Vec<String>,
    /// Inclusive bounds of generated f32 values (for the following `-g`).
    #[arg(long = "f32-bounds", value_name = "MIN:MAX")]
    pub f32_bounds: Vec<String>,
    /// Inclusive bounds of generated f64 values (for the following `-g`).
    #[arg(long = "f64-bounds", value_name = "MIN:MAX")]
    pub f64_bounds: Vec<String>,
}

#[derive(Args)]
pub struct PkgArgs {
    #[command(subcommand)]
    pub command: PkgCommand,
}

#[derive(Subcommand)]
pub enum PkgCommand {
    /// Check that every package `DIR/futhark.pkg` requires is installed
    /// under `DIR/lib/`.
    Check {
        /// The project's folder.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Create `futhark.pkg` for a new package with this package path (and
    /// its folder `lib/PKGPATH/`).
    Init {
        /// The package path, e.g. github.com/owner/repo.
        pkgpath: String,
    },
    /// Require a package in `futhark.pkg`, in the given minimum version or
    /// the newest one (replacing an earlier requirement).
    Add {
        /// The package path, e.g. github.com/owner/repo.
        pkgpath: String,
        /// The minimum version, MAJOR.MINOR.PATCH (default: the newest).
        version: Option<String>,
        /// Write the git commands run to stderr.
        #[arg(short, long)]
        verbose: bool,
    },
    /// Remove a package from `futhark.pkg` (`sync` removes its files).
    Remove {
        /// The package path.
        pkgpath: String,
    },
    /// Install the required packages and their dependencies under `lib/`
    /// (removing everything else there but the project's own package).
    Sync {
        /// Write the git commands run to stderr.
        #[arg(short, long)]
        verbose: bool,
    },
    /// Require the newest version (within its major version) of every
    /// required package.
    Upgrade {
        /// Write the git commands run to stderr.
        #[arg(short, long)]
        verbose: bool,
    },
    /// Rewrite `futhark.pkg` in the standard layout (comments kept).
    Fmt,
    /// List the released versions of a package.
    Versions {
        /// The package path.
        pkgpath: String,
        /// Write the git commands run to stderr.
        #[arg(short, long)]
        verbose: bool,
    },
}

#[derive(Args)]
pub struct CheckArgs {
    /// The program (`.fut` file, or printed core IR in a `.pir` file).
    pub program: PathBuf,
    /// Print the size of the rank problem of each definition AUTOMAP ran
    /// on (all of them with `PARAD_AUTOMAP=always`).
    #[arg(long)]
    pub automap_stats: bool,
}

/// How programs are executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendKind {
    /// The reference interpreter.
    Interp,
    /// Compiled to sequential C (the interpreter when there is no C
    /// compiler).
    C,
    /// Compiled to parallel C (the interpreter when there is no C
    /// compiler).
    Multicore,
    /// Compiled to C host code and OpenCL kernels: entry points whose
    /// kernels can be extracted run on an OpenCL device
    /// (`PARAD_OPENCL_DEVICE` picks one by name), the others as
    /// `multicore`.
    Opencl,
}

impl BackendKind {
    /// The backend, compiling with `config`; `threads` and `tuning` are
    /// used by compiled backends (`threads` `None`: `PARAD_THREADS`, else
    /// every core).
    pub fn backend(
        self,
        config: parad_driver::Config,
        threads: Option<usize>,
        tuning: parad_driver::Tuning,
    ) -> Box<dyn parad_driver::Backend + Sync> {
        let compiled = |mut c: parad_driver::C| {
            c.tuning = tuning;
            Box::new(c)
        };
        match self {
            BackendKind::Interp => Box::new(parad_driver::Interp::new(config)),
            BackendKind::C => compiled(parad_driver::C::sequential(config)),
            BackendKind::Multicore => compiled(parad_driver::C::new(config, threads)),
            BackendKind::Opencl => compiled(parad_driver::C::opencl(config, threads)),
        }
    }
}

#[derive(Args)]
pub struct RunArgs {
    /// The program (`.fut` file, or printed core IR in a `.pir` file).
    pub program: PathBuf,
    /// The entry point to call.
    #[arg(short = 'e', long = "entry-point", default_value = "main")]
    pub entry: String,
    /// Print results in Futhark's binary data format.
    #[arg(short = 'b', long = "binary-output")]
    pub binary: bool,
    /// The backend (default: `PARAD_BACKEND`, else `multicore`).
    #[arg(long, value_enum, env = "PARAD_BACKEND", default_value = "multicore")]
    pub backend: BackendKind,
    /// Threads of compiled programs (default: `PARAD_THREADS`, else every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Print the IR after these passes to standard error.
    #[arg(long, value_name = "PASS", value_delimiter = ',', value_parser = pass_values())]
    pub dump_after: Vec<String>,
    /// Set a tuning parameter (`#[param(NAME)]`) of compiled code
    /// (repeatable; the interpreter uses the defaults).
    #[arg(long, value_name = "NAME=INT", value_parser = parad_driver::parse_param)]
    pub param: Vec<(String, i64)>,
    /// Read NAME=INT tuning assignments, one a line, from FILE (before
    /// any `--param`).
    #[arg(long, value_name = "FILE")]
    pub tuning: Option<PathBuf>,
}

#[derive(Args)]
pub struct TestArgs {
    /// Programs, or directories searched recursively for `.fut` and `.pir` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The backend (default: `PARAD_BACKEND`, else `multicore`).
    #[arg(long, value_enum, env = "PARAD_BACKEND", default_value = "multicore")]
    pub backend: BackendKind,
    /// Threads of compiled programs (default: `PARAD_THREADS`, else every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
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
    /// Test with the interpreter (as `--backend interp`).
    #[arg(short = 'i')]
    pub interpreted: bool,
    /// Run compiled code only: the backend given (`multicore` when that is
    /// the interpreter). The default.
    #[arg(short = 'c', conflicts_with = "interpreted")]
    pub compiled: bool,
    /// Compile the programs, but do not run them.
    #[arg(short = 'C', conflicts_with = "type_check")]
    pub compile_only: bool,
    /// Type-check the programs, but do not compile or run them.
    #[arg(short = 't')]
    pub type_check: bool,
    /// Programs tested at the same time (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: Option<u32>,
    /// An option for the programs being run (repeatable); compiled
    /// programs run inside parad, so those of Futhark's executables that
    /// have a meaning here are accepted: `--num-threads=N`,
    /// `--param=NAME=INT` and `--tuning=FILE`.
    #[arg(long = "pass-option", value_name = "OPT", allow_hyphen_values = true)]
    pub pass_option: Vec<String>,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_terminal: bool,
    /// Random seed of property tests (default: a random one, printed with
    /// any counterexample).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Tuning files are `PROG.fut.EXT`: each program whose file exists
    /// runs with its tuning parameters set from it.
    #[arg(long = "tuning", value_name = "EXT", default_value = "tuning")]
    pub tuning: String,
    /// Read no tuning files.
    #[arg(long)]
    pub no_tuning: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Programs, or directories searched recursively for `.fut` and `.pir` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The backend (default: `PARAD_BACKEND`, else `multicore`).
    #[arg(long, value_enum, env = "PARAD_BACKEND", default_value = "multicore")]
    pub backend: BackendKind,
    /// Threads of compiled programs (default: `PARAD_THREADS`, else every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
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
    /// Skip the files whose path matches this regular expression
    /// (repeatable).
    #[arg(long = "ignore-files", value_name = "REGEX")]
    pub ignore_files: Vec<String>,
    /// Programs compiled at the same time before the timing, which runs one
    /// program at a time (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: Option<u32>,
    /// An option for the programs being run (repeatable), as for `test`:
    /// `--num-threads=N`, `--param=NAME=INT`, `--tuning=FILE`.
    #[arg(long = "pass-option", value_name = "OPT", allow_hyphen_values = true)]
    pub pass_option: Vec<String>,
    /// Tuning files are `PROG.fut.EXT`: each program whose file exists
    /// runs with its tuning parameters set from it.
    #[arg(long = "tuning", value_name = "EXT", default_value = "tuning")]
    pub tuning: String,
    /// Read no tuning files.
    #[arg(long)]
    pub no_tuning: bool,
}

/// The stages `dump --stage` accepts: `ast`, `elaborated`, then the driver's stage
/// names (`lower`, each pass, and the older `core`, `ad`, `opt`).
fn stage_values() -> PossibleValuesParser {
    let mut values = vec![PossibleValue::new("ast")
        .help("The syntax tree as parsed (an S-expression per declaration)")];
    values.push(PossibleValue::new("elaborated").help(
        "The program as Futhark source after type checking, with every implicit map explicit",
    ));
    values.extend(pass_help());
    values.extend([
        PossibleValue::new("core").help("= lower"),
        PossibleValue::new("ad").help("Lowering then AD, without simplification before it"),
        PossibleValue::new("opt").help("The whole pipeline (= the last pass)"),
        PossibleValue::new("imp").help("The imperative IR of the C backend"),
        PossibleValue::new("c").help("The C program the C backend compiles"),
        PossibleValue::new("gpu").help(
            "The imperative IR of the opencl backend: host code and kernels, and which entry points stay on the host and why",
        ),
        PossibleValue::new("opencl").help("The OpenCL C source of the opencl backend's kernels"),
    ]);
    PossibleValuesParser::new(values)
}

/// The names `--dump-after` accepts: `lower` and each pass.
fn pass_values() -> PossibleValuesParser {
    PossibleValuesParser::new(pass_help())
}

/// `lower` and the passes, each with what it does.
fn pass_help() -> Vec<PossibleValue> {
    let capital = |what: &str| {
        let mut c = what.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect::<String>())
            .unwrap_or_default()
    };
    std::iter::once(PossibleValue::new(parad_driver::LOWER).help("Lowering to core IR"))
        .chain(
            parad_driver::PASSES
                .iter()
                .map(|p| PossibleValue::new(p.name).help(capital(p.what))),
        )
        .collect()
}

#[derive(Args)]
pub struct DumpArgs {
    /// The stage whose output is printed: `ast`, or the core IR after a
    /// stage (the default pipeline run up to it).
    #[arg(long, value_parser = stage_values())]
    pub stage: String,
    /// Also print the IR after these passes (before the stage's output).
    #[arg(long, value_name = "PASS", value_delimiter = ',', value_parser = pass_values())]
    pub dump_after: Vec<String>,
    /// Print a table of statement counts per function (at any depth, by
    /// kind) instead of the core IR.
    #[arg(long)]
    pub stats: bool,
    /// The program (`.fut` file, or printed core IR in a `.pir` file).
    pub program: PathBuf,
}
