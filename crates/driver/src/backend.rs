//! What executes a program: a [`Backend`] turns a program file into a
//! [`Loaded`] program whose entry points can be called.
//!
//! The traits live next to the pipeline (not in the test runner) because
//! every backend starts from the driver's output and reports the driver's
//! errors; the test runner, `parad run` and `parad bench` only call them.

use crate::error::DriverError;
use parad_values::Value;
use std::path::Path;

/// An execution backend: compiles programs into something callable.
pub trait Backend {
    /// Short name as used in `no_<name>` tags and `--backend`.
    fn name(&self) -> &str;

    /// Whether cases marked `compiled` (too slow to interpret) are skipped.
    fn is_interpreter(&self) -> bool {
        false
    }

    /// Compiles the program at `path`. [`DriverError::Unsupported`] means
    /// that the backend cannot run this program (yet).
    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, DriverError>;

    /// [`Backend::load`] with values for the program's tuning parameters
    /// (`#[param(NAME)]`; a tuning file's, see [`parse_tuning`]). Backends
    /// without tuning parameters (the interpreter, as Futhark's) ignore
    /// them.
    fn load_tuned(
        &self,
        path: &Path,
        tuning: &[(String, i64)],
    ) -> Result<Box<dyn Loaded>, DriverError> {
        let _ = tuning;
        self.load(path)
    }
}

/// Values of tuning parameters, in the order given (a later one wins).
pub type Tuning = Vec<(String, i64)>;

/// Reads Futhark's tuning files: one `NAME=VALUE` a line, `VALUE` a
/// non-negative integer; blank lines are ignored.
pub fn parse_tuning(text: &str) -> Result<Tuning, String> {
    let mut out = vec![];
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        out.push(parse_param(line).map_err(|e| format!("line {}: {e}", k + 1))?);
    }
    Ok(out)
}

/// The tuning file `file` read ([`parse_tuning`]), errors naming it.
pub fn read_tuning(file: &Path) -> Result<Tuning, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read the tuning file {}: {e}", file.display()))?;
    parse_tuning(&text).map_err(|e| format!("tuning file {}: {e}", file.display()))
}

/// `NAME=VALUE` (a `--param` or a line of a tuning file).
pub fn parse_param(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}` has no name before `=`"));
    }
    let value: i64 = value
        .trim()
        .parse()
        .ok()
        .filter(|v| *v >= 0)
        .ok_or_else(|| {
            format!(
                "the value of {name}, `{}`, is not a non-negative integer",
                value.trim()
            )
        })?;
    Ok((name.to_string(), value))
}

/// A compiled program whose entry points can be called.
pub trait Loaded {
    /// Calls `entry`; the results are the entry's return values with
    /// tuples unpacked. Errors are [`DriverError::Runtime`] (the
    /// program failed) or [`DriverError::Unsupported`] (the backend cannot
    /// run this entry point yet).
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, DriverError>;

    /// Whether the program has an entry point called `entry` (so that a
    /// misspelt `entry:` is not mistaken for an expected run-time error).
    fn has_entry(&self, entry: &str) -> bool {
        let _ = entry;
        true
    }

    /// The types of `entry`'s parameters, if known: text arguments are
    /// read with them, so that literals without a type suffix take the
    /// parameter's type ([`parad_values::read_values_as`]).
    fn param_types(&self, entry: &str) -> Option<Vec<parad_values::ValueType>> {
        let _ = entry;
        None
    }

    /// How the program was compiled, in one line for people (e.g. the C
    /// backend's compile time and whether its cache had the library);
    /// `parad bench` shows it.
    fn compile_note(&self) -> Option<String> {
        None
    }

    /// The most bytes of array memory the program held at once since
    /// [`Loaded::reset_peak_memory`], where the backend counts it (the
    /// C backend does; the interpreter does not).
    fn peak_memory(&self) -> Option<u64> {
        None
    }

    /// Starts counting [`Loaded::peak_memory`] again from what is held
    /// now (between calls: nothing).
    fn reset_peak_memory(&mut self) {}
}
