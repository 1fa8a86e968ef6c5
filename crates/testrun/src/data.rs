//! Producing and checking values for test cases, with errors as text
//! located in the test file.

use crate::spec::{Case, Input, Values};
use parad_values::{DataError, Location, Value, ValueType};
use rand::{Rng, SeedableRng};
use std::path::Path;

/// The arguments of a case of the program at `path`, for an entry point
/// whose parameters have types `params` (unsuffixed literals in text
/// values take them; empty if unknown); `None` for inputs that cannot be
/// produced yet (FutharkScript).
pub fn case_input(
    path: &Path,
    case: &Case,
    params: &[ValueType],
) -> Result<Option<Vec<Value>>, String> {
    match &case.input {
        Input::Values(v) => read_as(v, params).map(Some),
        Input::Random { items, .. } => {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed(path, case.line, items));
            items
                .iter()
                .map(|i| random_item(i, &mut rng))
                .collect::<Result<_, _>>()
                .map(Some)
        }
        Input::Script(Values::Inline { text, .. }) => match load_data_script(text) {
            Some(file) => {
                let dir = path.parent().unwrap_or(Path::new(""));
                read_as(&Values::File(dir.join(file)), params).map(Some)
            }
            None => Ok(None),
        },
        Input::Script(Values::File(_)) => Ok(None),
    }
}

/// Values written in a test block or stored in a file.
pub(crate) fn read(v: &Values) -> Result<Vec<Value>, String> {
    read_as(v, &[])
}

/// Values written in a test block or stored in a file, as values of types
/// `types` (see [`parad_values::read_values_as`]).
fn read_as(v: &Values, types: &[ValueType]) -> Result<Vec<Value>, String> {
    match v {
        Values::Inline { text, line } => read_inline(text, *line, types),
        Values::File(f) => read_file(f, types),
    }
}

/// Parses values written in a test block whose opening brace is on line
/// `first_line`; errors name the line of the `.fut` file.
fn read_inline(text: &str, first_line: usize, types: &[ValueType]) -> Result<Vec<Value>, String> {
    parad_values::read_values_as(text.as_bytes(), types).map_err(|e| match e.location {
        Some(Location::Line { line, .. }) => {
            format!("line {}: {}", first_line + line - 1, e.message)
        }
        _ => format!("line {first_line}: {}", e.message),
    })
}

/// Reads a data file (text or binary, possibly gzip-compressed).
fn read_file(path: &Path, types: &[ValueType]) -> Result<Vec<Value>, String> {
    parad_values::read_file_as(path, types).map_err(|e: DataError| e.to_string())
}

/// One argument of a `random input` block: a type with sizes such as
/// `[10][2]f32` (random contents) or a constant such as `3i64`.
fn random_item(item: &str, rng: &mut impl Rng) -> Result<Value, String> {
    match parad_values::parse_value_type(item) {
        Ok((shape, t)) => {
            return parad_values::try_random_value(&shape, t, rng).map_err(|e| e.message)
        }
        // A type whose sizes cannot be counted: say so, not that it is no type.
        Err(e) if item.trim_start().starts_with('[') && e.message.contains("too many") => {
            return Err(format!("`{item}`: {}", e.message))
        }
        Err(_) => {}
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

/// The one FutharkScript form supported: `$loaddata "file"`.
fn load_data_script(text: &str) -> Option<&str> {
    let quoted = text.trim().strip_prefix("$loaddata")?.trim();
    let file = quoted.strip_prefix('"')?.strip_suffix('"')?;
    (!file.is_empty() && !file.contains('"')).then_some(file)
}

/// A seed that depends only on the file name, the case's line and its
/// types, so that random inputs are the same on every run.
fn seed(path: &Path, line: usize, items: &[String]) -> u64 {
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = format!("{name}:{line}:{}", items.join(" "));
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}
