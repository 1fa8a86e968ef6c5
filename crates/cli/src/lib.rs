//! # parad as a library
//!
//! Compile a Futhark program once, then call its entry points, and the
//! derivatives parad derives for them, from Rust. The command-line tool
//! and the Python package are built on this crate.
//!
//! ```
//! use parad::{Backend, Options, Program, Value};
//! let source = "
//!   entry loss (w: []f64) (x: []f64) : f64 =
//!     f64.sum (map2 (\\a b -> (a * b - 1) ** 2) w x)
//! ";
//! let options = Options::default()
//!     .backend(Backend::Interpreter) // or C, or Multicore (the default)
//!     .differentiate(["loss"]);
//! let program = Program::compile_source("loss.fut", source, options)?;
//! println!("{}", program.entry("loss").unwrap().signature());
//!
//! let w = Value::from(ndarray::arr1(&[1.0, 2.0]));
//! let x = Value::from(ndarray::arr1(&[3.0, 0.5]));
//! let l = program.call("loss", &[w.clone(), x.clone()])?;
//! assert_eq!(f64::try_from(&l[0])?, 4.0);
//!
//! // ∂loss/∂w and ∂loss/∂x, by reverse mode (seed 1 for the result).
//! let grads = program.vjp("loss", &[w, x], &[1.0f64.into()])?;
//! let dw = grads[0].as_array::<f64>().unwrap();
//! assert_eq!(dw.as_slice(), Some(&[12.0, 0.0][..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Errors are typed ([`Error`]): a program that does not compile gives
//! [`Error::Compile`] with the rendered diagnostic, a program that fails
//! while running [`Error::Runtime`] with its source location, and
//! arguments of the wrong type or number [`Error::BadInput`]:
//!
//! ```
//! use parad::{Backend, Error, Options, Program};
//! let options = Options::default().backend(Backend::Interpreter);
//! match Program::compile_source("bad.fut", "entry f (x: i32) = x + true", options) {
//!     Err(e @ Error::Compile { .. }) => {
//!         let at = e.location().unwrap();
//!         assert_eq!((at.file.as_str(), at.line), ("bad.fut", 1));
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! The library reads none of parad's environment variables and writes
//! nothing to standard error: [`Options`] says how to compile.

mod derivatives;
mod error;
mod options;
mod program;
mod value;

pub use derivatives::{jvp_name, vjp_name};
pub use error::{Error, Location};
pub use options::{Backend, Options};
pub use parad_base::{FloatType, IntType, PrimType, Scalar};
pub use parad_values::{ArrayData, ArrayValue as Array};
pub use program::{Entry, Param, Program};
pub use value::{ConversionError, Element, Opaque, Record, Type, Value};

/// The `ndarray` crate that values convert from and to.
pub use ndarray;
