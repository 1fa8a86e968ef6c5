//! Running the core passes on a program, with the IR checker and dumps
//! between them.
//!
//! This is the only place that sequences passes: the front end hands its
//! [`Compiled`] here, and so can anything else that builds a core
//! `Program` (a hand-built test program, a printed-IR reader).

use crate::config::Config;
use crate::error::{DriverError, Message};
use parad_base::{Diagnostic, SourceMap};
use parad_core::Program;
use std::sync::Arc;

/// A program in core IR on its way through the passes, and at their end.
#[derive(Debug)]
pub struct Compiled {
    pub program: Program,
    /// The source files the program's spans point into (empty for a
    /// program built in memory).
    pub sources: Arc<SourceMap>,
    /// Entry points a stage could not handle, removed from `program`
    /// (the others still run).
    pub left_out: Vec<LeftOut>,
    /// Whether AD has run: from then on the IR checker rejects AD operators.
    pub differentiated: bool,
    /// The interfaces of the source's entry points (C API, server), by
    /// name; empty for a program built in memory.
    pub api: Vec<(String, parad_types::api::ApiEntry)>,
}

/// An entry point removed from the program, and why.
#[derive(Clone, Debug)]
pub struct LeftOut {
    pub entry: String,
    /// The stage that left it out ([`crate::LOWER`] or a pass name).
    pub pass: &'static str,
    pub reason: Diagnostic,
}

impl Compiled {
    pub fn new(program: Program, sources: SourceMap) -> Compiled {
        Compiled {
            program,
            sources: Arc::new(sources),
            left_out: vec![],
            differentiated: false,
            api: vec![],
        }
    }

    /// A run-time error of this program, with the backtrace of inlined
    /// calls its location has.
    pub fn runtime_error(&self, d: Diagnostic) -> DriverError {
        let calls = d
            .span
            .map(|s| self.program.backtrace(s))
            .unwrap_or_default()
            .into_iter()
            .filter(|c| self.has_source_of(c))
            .collect();
        DriverError::Runtime(Message::diagnostic(d.with_backtrace(calls), &self.sources))
    }

    /// Whether `span` points into one of the program's source files.
    pub fn has_source_of(&self, span: &parad_base::Span) -> bool {
        self.sources.files().any(|(id, _)| id == span.file)
    }

    /// Why `entry` was left out, if it was: an unsupported-feature error.
    pub fn left_out_reason(&self, entry: &str) -> Option<DriverError> {
        let l = self.left_out.iter().find(|l| l.entry == entry)?;
        Some(DriverError::Unsupported(Message::diagnostic(
            l.reason.clone(),
            &self.sources,
        )))
    }

    /// Whether the source program has an entry point `entry` (still in the
    /// program, or left out).
    pub fn has_entry(&self, entry: &str) -> bool {
        self.program.entry(entry).is_some() || self.left_out.iter().any(|l| l.entry == entry)
    }

    /// The types of `entry`'s parameters, for reading its arguments (see
    /// [`parad_values::read_values_as`]); `None` for an entry point that
    /// is not in the program.
    pub fn param_types(&self, entry: &str) -> Option<Vec<parad_values::ValueType>> {
        let e = self.program.entry(entry)?;
        Some(
            e.params
                .iter()
                .map(|p| parad_values::ValueType {
                    rank: p.rank,
                    elem: p.elem,
                })
                .collect(),
        )
    }

    /// The C API's view of the entry point `e`: the source's, or for a
    /// program without a source (printed IR) one made of its leaves.
    pub fn api_entry(&self, e: &parad_core::EntryPoint) -> parad_types::api::ApiEntry {
        self.api
            .iter()
            .find(|(n, _)| *n == e.name)
            .map(|(_, a)| a.clone())
            .unwrap_or_else(|| {
                let leaves = |ts: &[parad_core::EntryType]| -> Vec<_> {
                    ts.iter().map(|t| (t.elem, t.rank)).collect()
                };
                parad_types::api::ApiEntry::of_leaves(&leaves(&e.params), &leaves(&e.results))
            })
    }
}

/// Runs `config.passes` in order on `c`, each followed by
/// [`after_stage`].
pub fn run_passes(c: &mut Compiled, config: &Config) -> Result<(), DriverError> {
    for pass in &config.passes {
        (pass.run)(c)?;
        after_stage(c, config, Some(pass.name), &format!("after {}", pass.what))?;
    }
    Ok(())
}

/// What happens after every stage: the dump hook when `config` asks for
/// the stage `name`, then the IR checker when enabled. (`name` is `None`
/// for a program given to the core passes, which is checked but not
/// dumped; `stage` says in words where the IR comes from.)
pub fn after_stage(
    c: &Compiled,
    config: &Config,
    name: Option<&str>,
    stage: &str,
) -> Result<(), DriverError> {
    if let Some(n) = name {
        if config.dumps_after(n) {
            (config.dump)(n, &c.program);
        }
    }
    if !config.check_ir {
        return Ok(());
    }
    let at = if c.differentiated {
        parad_core::Stage::AfterAd
    } else {
        parad_core::Stage::BeforeAd
    };
    parad_core::check_program_at(&c.program, at).map_err(|error| DriverError::IllFormed {
        pass: name.map(str::to_string),
        stage: stage.to_string(),
        error,
        sources: c.sources.clone(),
    })
}
