//! Futhark values as read from and written to data files: scalars and
//! regular arrays of any rank, stored flat in row-major order.

pub mod value;

pub use value::{ArrayData, ArrayValue, Scalar, Value};
