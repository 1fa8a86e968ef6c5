//! The core IR of parad (DESIGN §3): A-normal form with unique names,
//! multiple return values, dimensions as operands, and variadic SOACs.
//!
//! - [`ir`]: the data types; [`types`]: value types; [`ops`]: scalar operators;
//! - [`builder`]: terse construction of IR;
//! - [`pretty`]: the textual form (`Display` impls);
//! - [`check`]: the IR checker (types, scopes, and use after consumption);
//! - [`consume`]: aliasing, consumption and last-use analyses;
//! - [`free`]: occurrences and free variables.

pub mod builder;
pub mod check;
pub mod consume;
pub mod free;
pub mod ir;
pub mod names;
pub mod ops;
pub mod pretty;
pub mod rename;
pub mod screma;
pub mod subst;
pub mod types;
pub mod typing;
pub mod visit;

pub use builder::{Builder, ProgramBuilder};
pub use check::{check_program, check_program_at, CheckError, Stage};
pub use ir::*;
pub use names::{NameSource, Symbol, VName};
pub use ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
pub use types::{AccType, Dim, Type};
pub use visit::{Visitor, VisitorMut};
