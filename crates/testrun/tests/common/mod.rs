//! A fake in-memory backend and temporary test directories, shared by
//! the runner and bench tests.
#![allow(dead_code)] // each test file uses part of it

use parad_driver::{Backend, DriverError, Loaded};
use parad_values::{Scalar, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// How the fake backend treats a file (keyed by file name).
#[derive(Clone)]
pub enum Program {
    Compiles,
    CompileError(&'static str),
    Unsupported(&'static str),
}

pub type Calls = Rc<RefCell<Vec<(String, Vec<Value>)>>>;

pub struct Fake {
    pub interpreter: bool,
    pub programs: HashMap<String, Program>,
    pub calls: Calls,
}

impl Fake {
    pub fn new() -> Fake {
        Fake {
            interpreter: true,
            programs: HashMap::new(),
            calls: Calls::default(),
        }
    }

    pub fn with(mut self, file: &str, p: Program) -> Fake {
        self.programs.insert(file.to_string(), p);
        self
    }
}

/// Entry points of every fake program:
/// `main` adds i32 scalars, `echo` returns its arguments,
/// `fail` raises a run-time error, `unsup` is unsupported;
/// other names do not exist.
struct FakeLoaded {
    calls: Calls,
}

impl Backend for Fake {
    fn name(&self) -> &str {
        "fake"
    }

    fn is_interpreter(&self) -> bool {
        self.interpreter
    }

    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, DriverError> {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match self
            .programs
            .get(&name)
            .cloned()
            .unwrap_or(Program::Compiles)
        {
            Program::Compiles => Ok(Box::new(FakeLoaded {
                calls: self.calls.clone(),
            })),
            Program::CompileError(m) => Err(DriverError::Program(m.into())),
            Program::Unsupported(m) => Err(DriverError::Unsupported(m.into())),
        }
    }
}

impl Loaded for FakeLoaded {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, DriverError> {
        self.calls
            .borrow_mut()
            .push((entry.to_string(), args.clone()));
        match entry {
            "main" => {
                let mut sum = 0;
                for a in &args {
                    match a {
                        Value::Scalar(Scalar::I32(x)) => sum += x,
                        other => {
                            return Err(DriverError::Runtime(
                                format!("not an i32: {other:?}").into(),
                            ))
                        }
                    }
                }
                Ok(vec![Value::Scalar(Scalar::I32(sum))])
            }
            "echo" => Ok(args),
            "fail" => Err(DriverError::Runtime(
                "Error: index [5] out of bounds for array of 3".into(),
            )),
            "unsup" => Err(DriverError::Unsupported("f16 is not supported yet".into())),
            _ => unreachable!("has_entry said no"),
        }
    }

    fn has_entry(&self, entry: &str) -> bool {
        matches!(entry, "main" | "echo" | "fail" | "unsup")
    }
}

pub struct Dir(pub tempfile::TempDir);

impl Dir {
    pub fn new() -> Dir {
        Dir(tempfile::tempdir().unwrap())
    }

    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}
