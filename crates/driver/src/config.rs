//! Which passes run, whether the IR is checked between them, and which
//! intermediate programs are shown: one value instead of a boolean per
//! stage in every caller.

use crate::passes::{self, Pass, LOWER, PASSES};
use parad_core::Program;
use std::io::Write;
use std::sync::Arc;

/// Receives the program after each pass named in [`Config::dump_after`]:
/// the pass's name and the program.
pub type DumpHook = Arc<dyn Fn(&str, &Program) + Send + Sync>;

/// How to compile a program.
#[derive(Clone)]
pub struct Config {
    /// The core passes run after the front end, in order.
    pub passes: Vec<Pass>,
    /// Run the IR checker after the front end and after every pass.
    pub check_ir: bool,
    /// Names of passes (or [`LOWER`]) after which [`Config::dump`] is
    /// called. A name of a pass that does not run shows nothing.
    pub dump_after: Vec<String>,
    pub dump: DumpHook,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("passes", &self.passes)
            .field("check_ir", &self.check_ir)
            .field("dump_after", &self.dump_after)
            .finish_non_exhaustive()
    }
}

/// Whether the IR checker runs unless told otherwise: always in debug
/// builds, and when `PARAD_CHECK_IR` is set (the test suite sets it).
pub fn check_ir_by_default() -> bool {
    cfg!(debug_assertions) || std::env::var_os("PARAD_CHECK_IR").is_some()
}

/// The text of a dump: a line `-- after NAME`, then the program, ending
/// with a newline.
pub fn dump_text(pass: &str, program: &Program) -> String {
    let mut text = format!("-- after {pass}\n{program}");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Writes [`dump_text`] to standard error.
///
/// A write error is ignored (unlike `eprint!`, which panics): the hook has
/// no way to report it, and the compilation it watches goes on.
pub fn dump_to_stderr() -> DumpHook {
    Arc::new(|pass, program| {
        let _ = std::io::stderr().write_all(dump_text(pass, program).as_bytes());
    })
}

/// Writes [`dump_text`] to standard output. A write error is ignored (see
/// [`dump_to_stderr`]); a caller that writes there afterwards meets it
/// again and reports it.
pub fn dump_to_stdout() -> DumpHook {
    Arc::new(|pass, program| {
        let mut out = std::io::stdout().lock();
        let _ = out
            .write_all(dump_text(pass, program).as_bytes())
            .and_then(|()| out.flush());
    })
}

impl Default for Config {
    /// The whole pipeline ([`PASSES`]), the IR checked as
    /// [`check_ir_by_default`] says, nothing dumped (to standard error
    /// when asked).
    fn default() -> Config {
        Config {
            passes: PASSES.to_vec(),
            check_ir: check_ir_by_default(),
            dump_after: vec![],
            dump: dump_to_stderr(),
        }
    }
}

impl Config {
    /// The default configuration ([`Config::default`]).
    pub fn new() -> Config {
        Config::default()
    }

    /// The default pipeline up to and including the stage `name` (a pass
    /// name, or [`LOWER`] for the front end alone).
    pub fn up_to(name: &str) -> Option<Config> {
        let passes = if name == LOWER {
            vec![]
        } else {
            let n = PASSES.iter().position(|p| p.name == name)?;
            PASSES[..=n].to_vec()
        };
        Some(Config {
            passes,
            ..Config::default()
        })
    }

    /// Exactly the passes named, in the order given; `Err` names the
    /// first unknown one.
    pub fn with_passes(names: &[&str]) -> Result<Config, String> {
        let passes = names
            .iter()
            .map(|n| passes::pass(n).ok_or_else(|| n.to_string()))
            .collect::<Result<_, _>>()?;
        Ok(Config {
            passes,
            ..Config::default()
        })
    }

    /// The configuration of `parad dump --stage=NAME`: [`Config::up_to`]
    /// for a pass name or [`LOWER`], and the names older than the pass
    /// list: `core` (= `lower`), `ad` (lowering then AD, without
    /// simplification before it) and `opt` (the whole pipeline).
    pub fn for_stage(name: &str) -> Option<Config> {
        match name {
            "core" => Config::up_to(LOWER),
            "ad" => Some(Config {
                passes: vec![passes::DIFFERENTIATE],
                ..Config::default()
            }),
            "opt" => Some(Config::default()),
            _ => Config::up_to(name),
        }
    }

    pub fn with_check_ir(mut self, on: bool) -> Config {
        self.check_ir = on;
        self
    }

    /// Dumps the program after each of `names` (pass names or [`LOWER`]).
    pub fn with_dump_after<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Config {
        self.dump_after = names.into_iter().map(Into::into).collect();
        self
    }

    pub fn with_dump(mut self, hook: DumpHook) -> Config {
        self.dump = hook;
        self
    }

    /// Whether the program is dumped after the stage `name`.
    pub fn dumps_after(&self, name: &str) -> bool {
        self.dump_after.iter().any(|n| n == name)
    }
}

/// Every name [`Config::for_stage`] accepts: [`passes::pass_names`], then
/// `core`, `ad`, `opt`.
pub fn stage_names() -> Vec<&'static str> {
    let mut names = passes::pass_names();
    names.extend(["core", "ad", "opt"]);
    names
}
