//! Run-time errors of interpreted programs.

use parad_base::{Diagnostic, Span};
use std::fmt;

/// A run-time failure (bad index, size mismatch, failed assertion,
/// division by zero, …) at the statement that caused it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError {
    pub message: String,
    /// `None` for errors about the arguments of an entry point.
    pub span: Option<Span>,
}

impl RunError {
    pub fn new(message: impl Into<String>, span: Option<Span>) -> RunError {
        RunError {
            message: message.into(),
            span,
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self.span {
            Some(s) => Diagnostic::error(s, &self.message),
            None => Diagnostic::nowhere(&self.message),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunError {}

/// An error message not yet located; the evaluator adds the span of the
/// statement being run.
pub type Msg = String;

/// `[3][4]` for shape `[3, 4]`.
pub fn shape_str(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}
