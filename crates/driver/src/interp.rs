//! The reference interpreter (`parad_interp`) as a [`Backend`]: the
//! semantic oracle every other backend is compared with.

use crate::backend::{Backend, Loaded};
use crate::config::Config;
use crate::error::DriverError;
use crate::pipeline::Compiled;
use parad_values::Value;
use std::path::Path;

/// The interpreter backend, compiling with its [`Config`] (the whole
/// pipeline by default).
#[derive(Clone, Debug, Default)]
pub struct Interp {
    pub config: Config,
}

impl Interp {
    pub fn new(config: Config) -> Interp {
        Interp { config }
    }
}

impl Backend for Interp {
    fn name(&self) -> &str {
        "interp"
    }

    fn is_interpreter(&self) -> bool {
        true
    }

    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, DriverError> {
        let compiled = crate::compile_file(path, &self.config)?;
        Ok(Box::new(Interpreted(compiled)))
    }
}

/// A compiled program run by the interpreter.
#[derive(Debug)]
pub struct Interpreted(pub Compiled);

impl Loaded for Interpreted {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, DriverError> {
        if let Some(why) = self.0.left_out_reason(entry) {
            return Err(why);
        }
        parad_interp::run(&self.0.program, entry, args)
            .map_err(|e| self.0.runtime_error(e.to_diagnostic()))
    }

    fn has_entry(&self, entry: &str) -> bool {
        self.0.has_entry(entry)
    }

    fn param_types(&self, entry: &str) -> Option<Vec<parad_values::ValueType>> {
        self.0.param_types(entry)
    }
}
