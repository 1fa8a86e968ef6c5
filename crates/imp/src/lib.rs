//! The imperative IR (DESIGN §5) and its lowering from core IR: explicit
//! memory with index functions, sequential and parallel loops. The C
//! backend (`parad_cgen`) prints it.

pub mod ir;
pub mod lower;
pub mod pretty;

pub use ir::{Code, Exp, Function, Program};
pub use lower::{lower_program, lower_program_for, LowerError, Target};
