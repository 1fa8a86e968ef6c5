//! The front end: Futhark source to a core [`Program`](parad_core::Program)
//! (parse, type check, lower), one step of the pipeline named
//! [`LOWER`](crate::LOWER).
//!
//! It is kept apart from the core passes so that a program can enter the
//! pipeline another way (built in memory, or read from printed IR) and
//! still run the same passes; and its parts are public because some
//! commands stop early (`parad check` after type checking, `parad dump
//! --stage=ast` after parsing).

use crate::config::Config;
use crate::error::{DriverError, Message};
use crate::passes::{LOWER, LOWER_WHAT};
use crate::pipeline::{after_stage, Compiled, LeftOut};
use parad_base::{FileId, SourceMap};
use parad_lower::ErrorKind;
use std::path::Path;
use std::sync::Arc;

/// A source file, read into a [`SourceMap`].
pub struct Source {
    pub sources: SourceMap,
    pub file: FileId,
}

impl Source {
    /// Reads the file at `path` (named as the path is written).
    pub fn read(path: &Path) -> Result<Source, DriverError> {
        let text = parad_base::read_source(path).map_err(|error| DriverError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(Source::new(path.display().to_string(), text))
    }

    /// Source text given by name (imports are resolved relative to the
    /// name, as for a file).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let mut sources = SourceMap::new();
        let file = sources.add(name, text);
        Source { sources, file }
    }

    /// Whether the file holds printed core IR (`.pir`, as `parad dump`
    /// writes it) rather than Futhark source.
    pub fn is_printed_ir(&self) -> bool {
        self.sources.get(self.file).name.ends_with(".pir")
    }

    /// Reads the file as printed core IR: the program enters the pipeline
    /// where lowering would have left it (the stage [`LOWER`], dumped as
    /// `config` says). Statements are located in the file. The IR is the
    /// user's input here, so it is always checked, and an ill-formed
    /// program is an error in the program, not in the compiler.
    pub fn read_ir(self, config: &Config) -> Result<Compiled, DriverError> {
        let text = &self.sources.get(self.file).text;
        let error = |span: parad_base::Span, message: String| {
            let d = parad_base::Diagnostic::error(span, message);
            DriverError::Program(Message::diagnostic(d, &Arc::new(self.sources.clone())))
        };
        let program = parad_core::parse_program_in(text, self.file).map_err(|e| {
            let at = offset(text, e.line, e.col);
            error(parad_base::Span::new(self.file, at, at), e.message)
        })?;
        parad_core::check_program(&program).map_err(|e| {
            let span = e
                .span
                .filter(|s| s.file == self.file)
                .unwrap_or(parad_base::Span::new(self.file, 0, 0));
            error(span, format!("ill-formed program: {e}"))
        })?;
        let c = Compiled::new(program, self.sources);
        // Checked above already, whatever `config` says: only the dump is left.
        let dump_only = config.clone().with_check_ir(false);
        after_stage(&c, &dump_only, Some(LOWER), "read from printed IR")?;
        Ok(c)
    }

    /// The syntax tree of the file alone (no imports, no type check).
    pub fn parse(&self) -> Result<parad_syntax::ast::Program, DriverError> {
        let text = &self.sources.get(self.file).text;
        parad_syntax::parse(self.file, text).map_err(|d| {
            DriverError::Program(Message::diagnostic(d, &Arc::new(self.sources.clone())))
        })
    }

    /// Parses and type checks the file and what it imports.
    pub fn check(self) -> Result<Checked, DriverError> {
        let Source { mut sources, file } = self;
        match parad_types::check_file(&mut sources, file) {
            Ok(checked) => Ok(Checked { sources, checked }),
            Err(diagnostics) => Err(DriverError::Program(Message::Diagnostics {
                diagnostics,
                sources: Arc::new(sources),
            })),
        }
    }
}

/// A type-checked program with its sources.
pub struct Checked {
    pub sources: SourceMap,
    pub checked: parad_types::Checked,
}

impl Checked {
    /// Lowers to core IR, leaving out entry points that need a feature
    /// lowering does not support yet (an error only when that leaves no
    /// entry point), then dumps and checks as `config` says.
    pub fn lower(self, config: &Config) -> Result<Compiled, DriverError> {
        let sources = Arc::new(self.sources);
        // A later definition of an entry point shadows an earlier one.
        let mut api: Vec<(String, parad_types::api::ApiEntry)> = vec![];
        for e in &self.checked.entries {
            api.retain(|(n, _)| n != &e.name);
            api.push((e.name.clone(), e.api.clone()));
        }
        let (program, skipped) = parad_lower::lower_each(&self.checked).map_err(|e| {
            let m = Message::diagnostic(e.diagnostic(), &sources);
            match e.kind {
                ErrorKind::Unsupported => DriverError::Unsupported(m),
                ErrorKind::Program | ErrorKind::Bug => DriverError::Program(m),
            }
        })?;
        let left_out: Vec<LeftOut> = skipped
            .into_iter()
            .map(|(entry, e)| LeftOut {
                entry,
                pass: LOWER,
                reason: e.diagnostic(),
            })
            .collect();
        if program.entries.is_empty() {
            if let Some(l) = left_out.first() {
                return Err(DriverError::Unsupported(Message::diagnostic(
                    l.reason.clone(),
                    &sources,
                )));
            }
        }
        let c = Compiled {
            program,
            sources,
            left_out,
            differentiated: false,
            api,
        };
        after_stage(&c, config, Some(LOWER), &format!("after {LOWER_WHAT}"))?;
        Ok(c)
    }
}

/// The byte offset of 1-based `line` and `col` (in characters) in `text`,
/// clamped to the text.
fn offset(text: &str, line: u32, col: u32) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    start
        + rest
            .char_indices()
            .nth(col.saturating_sub(1) as usize)
            .map_or(rest.len(), |(k, _)| k)
}
