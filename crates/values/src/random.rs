//! Random values for `random input { [100]f32 i64 }` test blocks.
//!
//! Floats are uniform in [0, 1); integers are uniform in
//! [0, RANDOM_INT_BOUND), small and non-negative so that they are safe as
//! sizes and indices into small arrays; booleans are fair coin flips.

use half::f16;
use parad_base::PrimType;
use rand::Rng;

use crate::error::DataError;
use crate::text_read::TextReader;
use crate::value::{ArrayData, ArrayValue, Value};
use crate::with_array_data;

/// Exclusive upper bound of random integers.
pub const RANDOM_INT_BOUND: u8 = 10;

/// Parses a value type such as `[100][3]f32`, `i64` or `[0]bool`
/// (surrounding whitespace allowed).
pub fn parse_value_type(s: &str) -> Result<(Vec<usize>, PrimType), DataError> {
    let reader = TextReader::new(s.as_bytes());
    let start = reader.skip_blank(0);
    let (ty, end) = reader.read_type(start)?;
    let end = reader.skip_blank(end);
    if end != s.len() {
        let (line, col) = crate::error::line_col(s.as_bytes(), end);
        return Err(DataError::at_line(
            line,
            col,
            "unexpected text after the type",
        ));
    }
    // Reject sizes that cannot even be counted, so `random_value` never
    // overflows; the caller decides what is too large to allocate.
    let bytes =
        ty.0.iter()
            .try_fold(ty.1.size(), |acc, &d| acc.checked_mul(d));
    if bytes.is_none() {
        let (line, col) = crate::error::line_col(s.as_bytes(), start);
        return Err(DataError::at_line(
            line,
            col,
            "array type has too many elements",
        ));
    }
    Ok(ty)
}

/// One item of a `random input { ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub enum GenSpec {
    /// A value type such as `[100]f32`: generate a random value.
    Random(Vec<usize>, PrimType),
    /// A literal scalar such as `10i64`: use it as given.
    Fixed(Value),
}

/// Parses the contents of a `random input { ... }` block: value types and
/// scalar literals separated by blanks, e.g. `[100][3]f32 10i64 i32`.
pub fn parse_gen_specs(s: &str) -> Result<Vec<GenSpec>, DataError> {
    let reader = TextReader::new(s.as_bytes());
    let mut specs = Vec::new();
    let mut pos = reader.skip_blank(0);
    while pos < s.len() {
        let word_end = s[pos..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .map_or(s.len(), |i| pos + i);
        let is_type = s.as_bytes()[pos] == b'[' || PrimType::from_name(&s[pos..word_end]).is_some();
        let end = if is_type {
            let ((shape, t), end) = reader.read_type(pos)?;
            specs.push(GenSpec::Random(shape, t));
            end
        } else {
            let (v, end) = reader.read_value(pos, None)?;
            specs.push(GenSpec::Fixed(v));
            end
        };
        pos = reader.skip_blank(end);
    }
    Ok(specs)
}

/// A random value of the given shape (empty for a scalar) and element type.
/// Allocates the whole array: check the size of untrusted shapes first, or
/// use [`try_random_value`].
pub fn random_value(shape: &[usize], ty: PrimType, rng: &mut impl Rng) -> Value {
    let n: usize = shape.iter().product();
    random_into(shape, ArrayData::with_capacity(ty, n), n, rng)
}

/// Like [`random_value`], but an error instead of an abort when the array
/// has too many elements for memory.
pub fn try_random_value(
    shape: &[usize],
    ty: PrimType,
    rng: &mut impl Rng,
) -> Result<Value, DataError> {
    let dims: String = shape.iter().map(|d| format!("[{d}]")).collect();
    let too_big = || {
        DataError::new(
            None,
            format!("out of memory: cannot allocate a random value of type {dims}{ty}"),
        )
    };
    let n = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(too_big)?;
    let data = ArrayData::try_with_capacity(ty, n).map_err(|()| too_big())?;
    Ok(random_into(shape, data, n, rng))
}

/// Fills `data` (empty, with room for `n` elements) with random elements.
fn random_into(shape: &[usize], mut data: ArrayData, n: usize, rng: &mut impl Rng) -> Value {
    for _ in 0..n {
        let small = rng.gen_range(0..RANDOM_INT_BOUND);
        match &mut data {
            ArrayData::I8(v) => v.push(small as i8),
            ArrayData::I16(v) => v.push(small as i16),
            ArrayData::I32(v) => v.push(small as i32),
            ArrayData::I64(v) => v.push(small as i64),
            ArrayData::U8(v) => v.push(small),
            ArrayData::U16(v) => v.push(small as u16),
            ArrayData::U32(v) => v.push(small as u32),
            ArrayData::U64(v) => v.push(small as u64),
            ArrayData::F16(v) => v.push(f16::from_f32(rng.gen::<f32>()).min(ONE_BELOW_F16)),
            ArrayData::F32(v) => v.push(rng.gen::<f32>()),
            ArrayData::F64(v) => v.push(rng.gen::<f64>()),
            ArrayData::Bool(v) => v.push(rng.gen::<bool>()),
        }
    }
    debug_assert_eq!(with_array_data!(&data, v => v.len()), n);
    if shape.is_empty() {
        Value::Scalar(data.get(0).expect("one element"))
    } else {
        Value::Array(ArrayValue {
            shape: shape.to_vec(),
            data,
        })
    }
}

/// The largest f16 below 1, so rounding never yields exactly 1.
const ONE_BELOW_F16: f16 = f16::from_bits(0x3BFF);
