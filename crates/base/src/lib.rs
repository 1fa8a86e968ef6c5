//! Shared foundation of the parad pipeline: source files and spans,
//! diagnostics with caret rendering, and Futhark's primitive types and
//! scalar values.

pub mod diag;
pub mod prim;
pub mod scalar;
pub mod source;

pub use diag::{Diagnostic, Label};
pub use prim::{FloatType, IntType, PrimType};
pub use scalar::Scalar;
pub use source::{read_source, FileId, SourceMap, Span};
