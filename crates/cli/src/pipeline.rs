//! From a source file to something that runs: the compiler pipeline as
//! the command-line tool drives it.

use parad_base::{FileId, SourceMap};
use parad_testrun::{Backend, LoadError, Loaded};
use parad_types::Checked;
use std::path::Path;

/// A program that passed the front end.
#[allow(dead_code)] // read by `instantiate` once lowering exists
pub struct Compiled {
    pub sources: SourceMap,
    pub file: FileId,
    pub checked: Checked,
}

/// Reads, parses and type checks `path`. The error is ready to print:
/// rendered diagnostics, each starting with `error:`.
pub fn load_program(path: &Path) -> Result<Compiled, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))?;
    let mut sources = SourceMap::new();
    let file = sources.add(path.display().to_string(), text);
    match parad_types::check_file(&mut sources, file) {
        Ok(checked) => Ok(Compiled {
            sources,
            file,
            checked,
        }),
        Err(diags) => Err(diags.iter().map(|d| d.render(&sources)).collect()),
    }
}

/// Why the interpreter cannot run programs yet.
pub const NOT_YET: &str =
    "the interpreter cannot run programs yet (lowering to core IR is not implemented)";

/// SEAM (to be replaced when lowering and the interpreter exist): turns a
/// checked program into one whose entry points can be called.
pub fn instantiate(compiled: Compiled) -> Result<Box<dyn Loaded>, LoadError> {
    let _ = compiled;
    Err(LoadError::Unsupported(NOT_YET.to_string()))
}

/// The reference interpreter as a test backend.
pub struct Interp;

impl Backend for Interp {
    fn name(&self) -> &str {
        "interp"
    }

    fn is_interpreter(&self) -> bool {
        true
    }

    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, LoadError> {
        instantiate(load_program(path).map_err(LoadError::Compile)?)
    }
}
