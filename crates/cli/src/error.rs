//! The library's errors: what went wrong, where in the program, and the
//! message the command-line tool would print.

use parad_driver::{DriverError, Message};
use std::fmt;
use std::path::PathBuf;

/// A place in a program's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's name as it was given (a path or the name of a source).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A failure of parad or of the program it runs.
///
/// Messages are complete: a compile or run-time error's is the rendered
/// diagnostic (`error: …` with the file, line and the source underlined),
/// as `parad` prints it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The program's file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The program is wrong: a syntax, type or size error.
    #[error("{message}")]
    Compile {
        message: String,
        location: Option<Location>,
    },
    /// Something parad cannot compile or run yet (or, for the C
    /// backends, no C compiler was found).
    #[error("{message}")]
    Unsupported {
        message: String,
        location: Option<Location>,
    },
    /// The program has no entry point of that name.
    #[error("the program has no entry point `{0}`")]
    NoEntry(String),
    /// Arguments that do not fit the entry point: their number or types.
    #[error("bad input to `{entry}`: {message}")]
    BadInput { entry: String, message: String },
    /// The program failed while running: an index out of bounds, a
    /// failed assertion, a size mismatch, …
    #[error("{message}")]
    Runtime {
        message: String,
        location: Option<Location>,
    },
    /// A bug of parad.
    #[error("internal compiler error: {0}")]
    Internal(String),
}

impl Error {
    /// Where in the program the error is, when it is about a place.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::Compile { location, .. }
            | Error::Unsupported { location, .. }
            | Error::Runtime { location, .. } => location.as_ref(),
            _ => None,
        }
    }
}

/// The first located diagnostic of a message, as a [`Location`].
fn location(m: &Message) -> Option<Location> {
    match m {
        Message::Diagnostics {
            diagnostics,
            sources,
        } => {
            let files = sources.files().count();
            diagnostics
                .iter()
                .filter_map(|d| d.span.or_else(|| d.labels.first().map(|l| l.span)))
                .find(|s| (s.file.0 as usize) < files)
                .map(|s| {
                    let l = sources.location(s);
                    Location {
                        file: l.file.to_string(),
                        line: l.line,
                        column: l.col,
                    }
                })
        }
        Message::Text(_) => None,
    }
}

fn text(m: &Message) -> String {
    m.render().trim_end().to_string()
}

impl From<DriverError> for Error {
    fn from(e: DriverError) -> Error {
        match e {
            DriverError::Read { path, error } => Error::Read {
                path,
                source: error,
            },
            DriverError::Program(m) => {
                let message = text(&m);
                match message.strip_prefix("error: internal compiler error: ") {
                    Some(rest) => Error::Internal(rest.to_string()),
                    None => Error::Compile {
                        location: location(&m),
                        message,
                    },
                }
            }
            DriverError::Unsupported(m) => Error::Unsupported {
                location: location(&m),
                message: text(&m),
            },
            DriverError::Runtime(m) => Error::Runtime {
                location: location(&m),
                message: text(&m),
            },
            e @ DriverError::IllFormed { .. } => {
                let message = e.render();
                Error::Internal(
                    message
                        .trim_end()
                        .trim_start_matches("error: internal compiler error: ")
                        .to_string(),
                )
            }
        }
    }
}
