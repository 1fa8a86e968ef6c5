//! What can go wrong between a source file and its results, kept typed
//! until it is shown.
//!
//! Errors carry their diagnostics and the [`SourceMap`] they point into,
//! not rendered text: the edge (the command-line tool, the test runner, a
//! library user) decides how to show them, and a program can ask which
//! kind of failure it was (e.g. "unsupported" is a skip for the test
//! runner, a failure for `parad run`). [`DriverError::render`] gives the
//! text the command-line tool prints.

use parad_base::{Diagnostic, SourceMap};
use parad_core::CheckError;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Text about a program: diagnostics with the sources they point into, or
/// plain text from a backend that has no source locations.
#[derive(Clone, Debug)]
pub enum Message {
    Diagnostics {
        diagnostics: Vec<Diagnostic>,
        sources: Arc<SourceMap>,
    },
    Text(String),
}

impl Message {
    /// One diagnostic about `sources`.
    pub fn diagnostic(diagnostic: Diagnostic, sources: &Arc<SourceMap>) -> Message {
        Message::Diagnostics {
            diagnostics: vec![diagnostic],
            sources: sources.clone(),
        }
    }

    /// The diagnostics rendered with carets under the source, one after
    /// the other, or the text as it is.
    pub fn render(&self) -> String {
        match self {
            Message::Diagnostics {
                diagnostics,
                sources,
            } => diagnostics.iter().map(|d| render(d, sources)).collect(),
            Message::Text(t) => t.clone(),
        }
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message::Text(text)
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::Text(text.to_string())
    }
}

/// Renders `d`, dropping locations in files `sources` does not have (a
/// program built in memory has spans but no source text).
pub fn render(d: &Diagnostic, sources: &SourceMap) -> String {
    let files = sources.files().count();
    let known = |s: &parad_base::Span| (s.file.0 as usize) < files;
    if d.span.as_ref().is_none_or(known) && d.labels.iter().all(|l| known(&l.span)) {
        return d.render(sources);
    }
    let mut d = d.clone();
    d.span = d.span.filter(known);
    d.labels.retain(|l| known(&l.span));
    d.render(sources)
}

/// A failure of the driver or of a backend.
#[derive(Debug)]
pub enum DriverError {
    /// The program's file cannot be read.
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Errors in the program found while compiling it: parse and type
    /// errors, and lowering's errors (including its internal ones).
    Program(Message),
    /// Something parad cannot compile or run yet.
    Unsupported(Message),
    /// The IR checker rejected the program after a pass: a compiler bug.
    IllFormed {
        /// The pass after which the check failed (`None`: the program
        /// given to the core passes).
        pass: Option<String>,
        /// The same, in words: "the IR {stage} is ill-formed".
        stage: String,
        error: CheckError,
        sources: Arc<SourceMap>,
    },
    /// The program failed while running (an index out of bounds, a failed
    /// assertion, …).
    Runtime(Message),
}

impl DriverError {
    /// Whether this says that parad cannot do something yet (rather than
    /// that the program is wrong).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, DriverError::Unsupported(_))
    }

    /// The error as the command-line tool prints it. Program and run-time
    /// errors are rendered diagnostics (each starting with `error:`);
    /// the reason of an unsupported feature has no final newline.
    pub fn render(&self) -> String {
        match self {
            DriverError::Read { path, error } => {
                format!("error: cannot read {}: {error}\n", path.display())
            }
            DriverError::Program(m) | DriverError::Runtime(m) => m.render(),
            DriverError::Unsupported(m) => m.render().trim_end().to_string(),
            DriverError::IllFormed {
                stage,
                error,
                sources,
                ..
            } => {
                let at = error
                    .span
                    .map(|s| {
                        let d = Diagnostic::error(s, "");
                        let files = sources.files().count();
                        if (s.file.0 as usize) < files {
                            format!(" (at {})", d.short(sources).trim())
                        } else {
                            String::new()
                        }
                    })
                    .unwrap_or_default();
                format!(
                    "error: internal compiler error: the IR {stage} is ill-formed: {error}{at}\n"
                )
            }
        }
    }
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for DriverError {}
