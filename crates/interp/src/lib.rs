//! The reference interpreter of parad's core IR (DESIGN §5): simple,
//! sequential, and the semantic oracle for every other backend.
//!
//! ```ignore
//! let results = parad_interp::run(&program, "main", args)?;
//! ```

pub mod array;
pub mod error;
mod eval;
pub mod prim;
mod soac;
pub mod value;

pub use error::RunError;
pub use eval::Interp;
pub use value::{Array, Val};

use parad_core::{EntryType, Program};
use parad_values::Value;

/// Runs entry point `entry` of `prog` on `args`.
pub fn run(prog: &Program, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, RunError> {
    Interp::new(prog).run_entry(prog, entry, args)
}

fn entry_type_str(t: &EntryType) -> String {
    format!("{}{}", "[]".repeat(t.rank), t.elem)
}

impl Interp<'_> {
    /// Runs an entry point, checking the arguments against its external
    /// signature.
    pub fn run_entry(
        &mut self,
        prog: &Program,
        entry: &str,
        args: Vec<Value>,
    ) -> Result<Vec<Value>, RunError> {
        let e = prog
            .entry(entry)
            .ok_or_else(|| RunError::new(format!("no entry point named {entry}"), None))?;
        if args.len() != e.params.len() {
            return Err(RunError::new(
                format!(
                    "entry point {entry} expects {} arguments but got {}",
                    e.params.len(),
                    args.len()
                ),
                None,
            ));
        }
        for (i, (a, t)) in args.iter().zip(&e.params).enumerate() {
            if a.elem_type() != t.elem || a.rank() != t.rank {
                return Err(RunError::new(
                    format!(
                        "argument {} of entry point {entry} has type {} but {} was expected",
                        i + 1,
                        a.type_name(),
                        entry_type_str(t)
                    ),
                    None,
                ));
            }
        }
        let vals = args.into_iter().map(Val::from_value).collect();
        let res = self.call(e.fun, vals, None)?;
        res.into_iter()
            .map(|v| v.into_value().map_err(|e| RunError::new(e, None)))
            .collect()
    }

    /// Full array copies made so far (explicit `copy`, and copies of shared
    /// arrays before an update).
    pub fn copy_count(&self) -> u64 {
        self.copies.0.get()
    }
}
