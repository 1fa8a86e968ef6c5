//! Source files and byte spans into them.

use std::fmt;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
///
/// Code inlined from a function call keeps the callee's spans, marked
/// with the call they were inlined at: `frame` is 0 outside any inlined
/// call, else one more than the index of the call's own span in the
/// program's table of calls (core IR's `Program::frames`), which may
/// itself be inside another inlined call. That chain is the backtrace of
/// a run-time error (the way rustc's spans carry their macro expansion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
    pub frame: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
            frame: 0,
        }
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
            frame: self.frame,
        }
    }

    /// This source range inside the inlined call `frame` (see the type's
    /// documentation).
    pub fn in_frame(self, frame: u32) -> Span {
        Span { frame, ..self }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// All source files of a compilation, addressed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// `file:line:col` of the start of a span, as used in one-line messages.
    pub fn location(&self, span: Span) -> Location<'_> {
        let f = self.get(span.file);
        let (line, col) = f.line_col(span.start as usize);
        Location {
            file: &f.name,
            line,
            col,
        }
    }
}

/// A printable `file:line:col`.
pub struct Location<'a> {
    pub file: &'a str,
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Reads a source file, which must be UTF-8; an invalid byte is reported
/// with its line and column.
pub fn read_source(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&bytes[start..at]).chars().count() + 1;
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "line {line}, column {col}: not valid UTF-8 (byte 0x{:02x}); source files must be UTF-8",
                bytes[at]
            ),
        )
    })
}

#[cfg(test)]
mod read_tests {
    #[test]
    fn invalid_utf8_has_a_location() {
        let dir = std::env::temp_dir().join(format!("parad-src-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.fut");
        std::fs::write(&p, b"def main =\n  \xc3\xa9 \xff\n").unwrap();
        let e = super::read_source(&p).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 5: not valid UTF-8 (byte 0xff); source files must be UTF-8"
        );
        std::fs::write(&p, "def main = 1\n").unwrap();
        assert_eq!(super::read_source(&p).unwrap(), "def main = 1\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
