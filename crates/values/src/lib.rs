//! Futhark values as read from and written to data files: scalars and
//! regular arrays of any rank, stored flat in row-major order, in Futhark's
//! text and binary formats (gzip-compressed input too), with `futhark
//! test`-style comparison and random generation.

pub mod binary;
pub mod compare;
pub mod error;
pub mod random;
pub mod read;
mod text_read;
pub mod text_write;
pub mod value;

pub use binary::{binary_type_name, write_binary, write_binary_to};
pub use compare::{compare, compare_all, compare_with, Mismatch, Tolerance};
pub use error::{DataError, Location};
pub use random::{
    parse_gen_specs, parse_value_type, random_value, try_random_value, try_random_value_in, Bounds,
    GenSpec,
};
pub use read::{read_file, read_file_as, read_values, read_values_as, read_values_from};
pub use text_write::{scalar_to_text, to_text, values_to_text, write_text};
pub use value::{ArrayData, ArrayValue, Scalar, Value, ValueType};
