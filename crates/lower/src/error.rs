//! Lowering errors. A well-typed program lowers unless it uses something
//! parad does not support yet; internal inconsistencies are reported as
//! compiler bugs rather than panics.

use parad_base::{Diagnostic, Span};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A construct lowering does not handle (yet).
    Unsupported,
    /// The program is wrong in a way the type checker does not see.
    Program,
    /// A bug in parad.
    Bug,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LowerError {
    pub kind: ErrorKind,
    pub span: Span,
    pub message: String,
}

pub type R<T> = Result<T, LowerError>;

impl LowerError {
    pub fn unsupported(span: Span, message: impl Into<String>) -> LowerError {
        LowerError {
            kind: ErrorKind::Unsupported,
            span,
            message: format!("not supported yet: {}", message.into()),
        }
    }

    pub fn program(span: Span, message: impl Into<String>) -> LowerError {
        LowerError {
            kind: ErrorKind::Program,
            span,
            message: message.into(),
        }
    }

    pub fn bug(span: Span, message: impl Into<String>) -> LowerError {
        LowerError {
            kind: ErrorKind::Bug,
            span,
            message: format!("internal compiler error in lowering: {}", message.into()),
        }
    }

    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.span, self.message.clone())
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LowerError {}
