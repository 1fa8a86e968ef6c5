//! Producing and checking values for test cases, with errors as text
//! located in the test file.

use parad_values::{DataError, Location, Value};
use rand::Rng;
use std::path::Path;

/// Parses values written in a test block whose opening brace is on line
/// `first_line`; errors name the line of the `.fut` file.
pub(crate) fn read_inline(text: &str, first_line: usize) -> Result<Vec<Value>, String> {
    parad_values::read_values(text.as_bytes()).map_err(|e| match e.location {
        Some(Location::Line { line, .. }) => {
            format!("line {}: {}", first_line + line - 1, e.message)
        }
        _ => format!("line {first_line}: {}", e.message),
    })
}

/// Reads a data file (text or binary, possibly gzip-compressed).
pub(crate) fn read_file(path: &Path) -> Result<Vec<Value>, String> {
    parad_values::read_file(path).map_err(|e: DataError| e.to_string())
}

/// One argument of a `random input` block: a type with sizes such as
/// `[10][2]f32` (random contents) or a constant such as `3i64`.
pub(crate) fn random_item(item: &str, rng: &mut impl Rng) -> Result<Value, String> {
    if let Ok((shape, t)) = parad_values::parse_value_type(item) {
        return Ok(parad_values::random_value(&shape, t, rng));
    }
    match parad_values::read_values(item.as_bytes()) {
        Ok(mut vs) if vs.len() == 1 => Ok(vs.remove(0)),
        _ => Err(format!(
            "`{item}` is neither a type such as `[10]f32` nor a constant"
        )),
    }
}

/// Compares all results; the error lists every mismatching value.
pub(crate) fn check_results(expected: &[Value], actual: &[Value]) -> Result<(), String> {
    if expected.len() != actual.len() {
        return Err(format!(
            "expected {} result value(s), got {}",
            expected.len(),
            actual.len()
        ));
    }
    let mut diffs = vec![];
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        if let Err(m) = parad_values::compare(e, a) {
            diffs.push(if expected.len() == 1 {
                m.to_string()
            } else {
                format!("result #{i}: {m}")
            });
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("\n"))
    }
}
