//! What the code generator hands to [`crate::build`] and [`crate::load`]:
//! a C translation unit and the table that gives meaning to its entry
//! numbers and span ids.
//!
//! Placeholder until `emit` provides it: the driver's C backend calls
//! [`emit`] in exactly one place, to be replaced by `crate::emit::emit`.

use parad_base::Span;
use parad_core::{EntryPoint, Program};

/// A complete generated C program.
#[derive(Clone, Debug, PartialEq)]
pub struct CProgram {
    /// The complete C translation unit, exporting the ABI described in
    /// [`crate::load`].
    pub source: String,
    /// Entry `i` is called with index `i`.
    pub entries: Vec<EntryPoint>,
    /// The span ids reported by `parad_ctx_error_span` index this.
    pub spans: Vec<Span>,
}

/// Stand-in for the code generator until it exists.
pub fn emit(program: &Program) -> Result<CProgram, String> {
    let _ = program;
    Err("the C code generator is not written yet".to_string())
}
