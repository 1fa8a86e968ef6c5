//! `parad test`: reads Futhark test blocks (`-- ==` comments) and runs
//! their cases against an execution backend.
//!
//! [`spec`] parses the blocks of a file, [`runner`] runs them through a
//! [`Backend`](parad_driver::Backend) supplied by the caller (the traits
//! and the interpreter backend are in `parad_driver`) and counts passed,
//! failed and skipped cases; [`property`] runs the `property:` tests
//! (random candidates, shrinking of counterexamples).

pub mod bench;
mod data;
pub mod property;
pub mod runner;
mod script;
pub mod spec;

pub use bench::{bench_files, prepare, BenchOptions, BenchReport, BenchResult};
pub use data::case_input;
pub use runner::{
    find_fut_files, run_file, run_files, run_files_concurrently, FileReport, Mode, Options, Summary,
};
pub use script::{eval as eval_script, eval_structured, ScriptError, ScriptValue};
pub use spec::{parse_spec, SpecError, TestSpec};
