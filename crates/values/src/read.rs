//! Reading a sequence of values in either format, mixed freely, from bytes
//! or a (possibly gzip-compressed) file.

use std::io::Read;
use std::path::Path;

use crate::binary::read_binary_value;
use crate::error::DataError;
use crate::text_read::TextReader;
use crate::value::{Value, ValueType};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads all values in `bytes`. Each value is binary if it starts with `b`
/// and text otherwise; blanks and `--` comments may separate them. Input
/// starting with the gzip magic bytes is decompressed first (error
/// locations then refer to the decompressed data).
pub fn read_values(bytes: &[u8]) -> Result<Vec<Value>, DataError> {
    read_values_as(bytes, &[])
}

/// Reads all values in `bytes` (as [`read_values`]) as the arguments of an
/// entry point whose parameters have types `expected`: a text literal
/// without a type suffix in value `i` gets the element type of
/// `expected[i]` (`2` is read as `2f64` for an `f64` parameter, `[1, 2]`
/// as `[1f32, 2f32]` for a `[]f32` one), and is an error if it does not
/// fit in it (`300` for `u8`, `1.5` for `i64`). Suffixed literals and
/// values past the end of `expected` keep their own types.
pub fn read_values_as(bytes: &[u8], expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut plain)
            .map_err(|e| DataError::new(None, format!("invalid gzip data: {e}")))?;
        return read_plain(&plain, expected);
    }
    read_plain(bytes, expected)
}

fn read_plain(input: &[u8], expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    let reader = TextReader::new(input);
    let mut values = Vec::new();
    let mut pos = reader.skip_blank(0);
    while pos < input.len() {
        let (v, end) = if input[pos] == b'b' {
            read_binary_value(input, pos)?
        } else {
            reader.read_value(pos, expected.get(values.len()).copied())?
        };
        values.push(v);
        pos = reader.skip_blank(end);
    }
    Ok(values)
}

/// Reads all values in a file; gzip is detected by content, not name.
/// Errors name the file.
pub fn read_file(path: &Path) -> Result<Vec<Value>, DataError> {
    read_file_as(path, &[])
}

/// Reads all values in a file as the arguments of an entry point whose
/// parameters have types `expected` (see [`read_values_as`]).
pub fn read_file_as(path: &Path, expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    let bytes = std::fs::read(path)
        .map_err(|e| DataError::new(None, format!("cannot read file: {e}")).in_file(path))?;
    read_values_as(&bytes, expected).map_err(|e| e.in_file(path))
}
