//! The parad compiler pipeline as data (DESIGN §1), and the one way in
//! for every user of it: the command-line tool, the test runner, the
//! benchmarks, test harnesses and library users.
//!
//! Why: the pipeline used to be assembled by each caller (the CLI with a
//! boolean per stage, the AD test harness again, …), so the IR checker,
//! per-entry-point failures and error messages drifted apart. Here the
//! passes are a list of named values ([`PASSES`]) chosen by a [`Config`],
//! and one loop ([`run_passes`]) runs them with the checks and dumps.
//!
//! ```text
//!  .fut ─► front end: parse, type check, lower ─► core Program    stage `lower`
//!                                                      │
//!          core passes, Config::passes in order:       ▼
//!            simplify        rule-based simplifier                `simplify`
//!            differentiate   jvp/vjp expanded, per entry function `differentiate`
//!            optimise        simplify, accumulators → reductions,
//!                            hoist out of maps, simplify          `optimise`
//!            fuse            SOACs fused into screma, simplify    `fuse`
//!            copies          needless copies removed              `copies`
//!                                                      │
//!                                                      ▼
//!                                  Compiled ─► Backend (Interp, C) ─► Loaded::call
//! ```
//!
//! After the front end and after each pass, the program is given to
//! [`Config::dump`] when [`Config::dump_after`] names the stage (the
//! default hook prints `-- after NAME` and the IR to stderr), then
//! checked by `parad_core::check_program` when [`Config::check_ir`] is set
//! (by default in debug builds and when `PARAD_CHECK_IR` is set); an
//! ill-formed program is [`DriverError::IllFormed`], naming the pass.
//!
//! Entry points:
//! - [`compile_file`], [`compile_source`]: source to a [`Compiled`]
//!   program (the core `Program`, its sources, and the entry points left
//!   out with the reason: one entry point that lowering or AD cannot
//!   handle does not stop the others);
//! - [`compile_program`]: the core passes on a `Program` that did not come
//!   from the front end (built in memory by a test; a printed-IR reader
//!   would hand its `Program` and a [`SourceMap`] holding the text here);
//! - [`Source`] and [`Checked`] for the front end's parts (`parad check`
//!   stops after type checking, `parad dump --stage=ast` after parsing);
//! - [`Backend`] and [`Loaded`]: what runs a program; [`Interp`] is the
//!   reference interpreter.
//!
//! Errors stay typed ([`DriverError`], with diagnostics and their
//! sources) until the caller shows them with [`DriverError::render`].
//!
//! Stage names for `parad dump --stage=NAME` are [`stage_names`]: `lower`
//! and each pass name (the default pipeline up to that stage), plus the
//! older `core` (= `lower`), `ad` (lowering then AD, without
//! simplification before it) and `opt` (everything); see
//! [`Config::for_stage`]. `--dump-after NAME,…` takes [`pass_names`].
//!
//! A new pass is a [`Pass`] value (name, words for messages, function)
//! added to [`PASSES`] where it belongs; `parad dump` and `--dump-after`
//! learn its name from there.
//!
//! ```no_run
//! use parad_driver::{compile_file, Config};
//! let config = Config::up_to("differentiate").unwrap().with_dump_after(["lower"]);
//! match compile_file("prog.fut".as_ref(), &config) {
//!     Ok(c) => print!("{}", c.program),
//!     Err(e) => eprint!("{}", e.render()),
//! }
//! ```

mod backend;
mod c;
mod config;
mod error;
pub mod export;
mod front;
mod interp;
mod passes;
mod pipeline;

pub use backend::{parse_param, parse_tuning, read_tuning, Backend, Loaded, Tuning};
pub use c::{default_threads, CompiledC, C};
pub use config::{
    check_ir_by_default, dump_text, dump_to_stderr, dump_to_stdout, stage_names, Config, DumpHook,
};
pub use error::{render, DriverError, Message};
pub use front::{Checked, Source};
pub use interp::{Interp, Interpreted};
pub use passes::{
    pass, pass_names, Pass, COPIES, DIFFERENTIATE, FUSE, LOWER, OPTIMISE, PASSES, SIMPLIFY,
};
pub use pipeline::{after_stage, run_passes, Compiled, LeftOut};

use parad_base::SourceMap;
use parad_core::Program;
use std::path::Path;

/// Reads, parses, type checks and lowers the file at `path` (or reads it
/// as printed core IR, for a `.pir` file), then runs the core passes of
/// `config`.
pub fn compile_file(path: &Path, config: &Config) -> Result<Compiled, DriverError> {
    compile(Source::read(path)?, config)
}

/// [`compile_file`] for source text given by name.
pub fn compile_source(name: &str, text: &str, config: &Config) -> Result<Compiled, DriverError> {
    compile(Source::new(name, text), config)
}

/// The front end (or the IR reader, for printed IR), then the core
/// passes of `config`.
pub fn compile(source: Source, config: &Config) -> Result<Compiled, DriverError> {
    let mut c = if source.is_printed_ir() {
        source.read_ir(config)?
    } else {
        source.check()?.lower(config)?
    };
    run_passes(&mut c, config)?;
    Ok(c)
}

/// The core passes of `config` on a program built without the front end
/// (`sources`: the files its spans point into, possibly none). The
/// program is checked first when `config.check_ir` is set.
pub fn compile_program(
    program: Program,
    sources: SourceMap,
    config: &Config,
) -> Result<Compiled, DriverError> {
    let mut c = Compiled::new(program, sources);
    after_stage(&c, config, None, "given to the core passes")?;
    run_passes(&mut c, config)?;
    Ok(c)
}
