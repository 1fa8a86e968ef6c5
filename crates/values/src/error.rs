//! Errors from reading values, located in the input they came from.

use std::fmt;
use std::path::PathBuf;

/// Where in the input an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A position in text input, both 1-based; columns count characters.
    Line { line: usize, col: usize },
    /// A byte offset (0-based) into binary input.
    Byte(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line { line, col } => write!(f, "line {line}, column {col}"),
            Location::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// A failure to read values. Displays as `[path: ][location: ]message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct DataError {
    /// The file the input came from, when read by [`crate::read_file`].
    pub path: Option<PathBuf>,
    /// `None` for errors about the input as a whole (I/O, bad gzip stream).
    pub location: Option<Location>,
    pub message: String,
}

impl DataError {
    pub fn new(location: Option<Location>, message: impl Into<String>) -> DataError {
        DataError {
            path: None,
            location,
            message: message.into(),
        }
    }

    pub fn at_byte(offset: usize, message: impl Into<String>) -> DataError {
        DataError::new(Some(Location::Byte(offset)), message)
    }

    pub fn at_line(line: usize, col: usize, message: impl Into<String>) -> DataError {
        DataError::new(Some(Location::Line { line, col }), message)
    }

    /// Attaches the file the input was read from.
    pub fn in_file(mut self, path: impl Into<PathBuf>) -> DataError {
        self.path = Some(path.into());
        self
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        if let Some(l) = &self.location {
            write!(f, "{l}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Converts a byte offset in `input` to a 1-based line and character column.
pub(crate) fn line_col(input: &[u8], offset: usize) -> (usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    // Count characters, not bytes: skip UTF-8 continuation bytes.
    let col = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_characters() {
        let s = "ab\ncd\n\u{e9}x".as_bytes();
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 2), (1, 3));
        assert_eq!(line_col(s, 3), (2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(line_col(s, 8), (3, 2));
    }

    #[test]
    fn display_includes_path_and_location() {
        let e = DataError::at_line(3, 7, "oops").in_file("data/x.in");
        assert_eq!(e.to_string(), "data/x.in: line 3, column 7: oops");
        assert_eq!(DataError::at_byte(42, "bad").to_string(), "byte 42: bad");
        assert_eq!(DataError::new(None, "io").to_string(), "io");
    }
}
