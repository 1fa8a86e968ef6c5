//! Diagnostics: a message, a primary span and secondary labels, rendered
//! with carets under the source text.

use crate::source::{SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::NoColor};
use std::fmt;

/// A secondary location with a note, e.g. "previous definition here".
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// An error (parse, type or run-time) about a user's program or data.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Option<Span>,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// For a run-time error in inlined code: the calls it happened in,
    /// innermost first (printed after the message as Futhark does).
    pub backtrace: Vec<Span>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: Some(span),
            labels: vec![],
            notes: vec![],
            backtrace: vec![],
        }
    }

    /// An error with no source location (e.g. a missing file).
    pub fn nowhere(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: None,
            labels: vec![],
            notes: vec![],
            backtrace: vec![],
        }
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_backtrace(mut self, calls: Vec<Span>) -> Diagnostic {
        self.backtrace = calls;
        self
    }

    /// Renders as text with source excerpts and carets, without colour.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut files = SimpleFiles::new();
        let ids: Vec<usize> = sources
            .files()
            .map(|(_, f)| files.add(f.name.clone(), f.text.clone()))
            .collect();
        let mut d = cs::Diagnostic::error().with_message(&self.message);
        let mut labels = vec![];
        if let Some(s) = self.span {
            labels.push(cs::Label::primary(
                ids[s.file.0 as usize],
                clamp(s, sources),
            ));
        }
        for l in &self.labels {
            labels.push(
                cs::Label::secondary(ids[l.span.file.0 as usize], clamp(l.span, sources))
                    .with_message(&l.message),
            );
        }
        d = d.with_labels(labels).with_notes(self.notes.clone());
        let mut out = NoColor::new(Vec::new());
        let config = term::Config::default();
        if term::emit(&mut out, &config, &files, &d).is_err() {
            return self.short(sources);
        }
        let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
        text.push_str(&self.backtrace_text(sources));
        text
    }

    /// `Backtrace:` and a line per frame, the error's own location first
    /// (`-> #0  file:line:col-col`); empty without inlined calls.
    fn backtrace_text(&self, sources: &SourceMap) -> String {
        let (Some(at), false) = (self.span, self.backtrace.is_empty()) else {
            return String::new();
        };
        let mut text = String::from("Backtrace:\n");
        for (k, s) in std::iter::once(at)
            .chain(self.backtrace.iter().copied())
            .enumerate()
        {
            let arrow = if k == 0 { "->" } else { "  " };
            let f = sources.get(s.file);
            let (line, col) = f.line_col(s.start as usize);
            let (end_line, end_col) = f.line_col((s.end as usize).max(s.start as usize + 1) - 1);
            let end = if end_line == line {
                format!("{end_col}")
            } else {
                format!("{end_line}:{end_col}")
            };
            text.push_str(&format!("{arrow} #{k:<2} {}:{line}:{col}-{end}\n", f.name));
        }
        text
    }

    /// One line: `file:line:col: message`.
    pub fn short(&self, sources: &SourceMap) -> String {
        match self.span {
            Some(s) => format!("{}: {}", sources.location(s), self.message),
            None => self.message.clone(),
        }
    }
}

/// Keeps a span inside its file and on character boundaries, so that
/// rendering never fails on a span computed from odd input.
fn clamp(s: Span, sources: &SourceMap) -> std::ops::Range<usize> {
    let text = &sources.get(s.file).text;
    let mut a = (s.start as usize).min(text.len());
    let mut b = (s.end as usize).min(text.len()).max(a);
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    while !text.is_char_boundary(b) {
        b += 1;
    }
    a..b
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}
