//! The core IR of parad (DESIGN §3): A-normal form with unique names,
//! multiple return values, dimensions as operands, and variadic SOACs.
//!
//! - [`ir`]: the data types; [`types`]: value types; [`ops`]: scalar operators;
//! - [`builder`]: terse construction of IR; [`pexp`]: scalar expressions
//!   for it; [`consts`]: typed constants;
//! - [`pretty`]: the textual form (`Display` impls); [`parse`]: reading it back;
//! - [`check`]: the IR checker (types, scopes, and use after consumption);
//! - [`consume`]: aliasing, consumption and last-use analyses;
//! - [`visit`]: the one traversal; [`walk`]: statements at any depth;
//! - [`free`]: occurrences and free variables; [`stats`]: statement counts.

pub mod builder;
pub mod check;
pub mod consts;
pub mod consume;
pub mod free;
pub mod ir;
pub mod names;
pub mod ops;
pub mod parse;
pub mod pexp;
pub mod pretty;
pub mod rename;
pub mod screma;
pub mod stats;
pub mod subst;
pub mod types;
pub mod typing;
pub mod visit;
pub mod walk;

pub use builder::{Builder, ProgramBuilder};
pub use check::{check_program, check_program_at, CheckError, Stage};
pub use ir::*;
pub use names::{NameSource, Symbol, VName};
pub use ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
pub use parse::{parse_program, parse_program_in, ParseError};
pub use pexp::PExp;
pub use types::{AccType, Dim, Type};
pub use visit::{Visitor, VisitorMut};
