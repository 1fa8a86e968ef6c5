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

/// Inclusive bounds of random values per primitive type, as `parad
/// dataset --T-bounds=MIN:MAX` sets them. The default is Futhark's: the
/// whole range of each integer type, [0, 1] for floats.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    ints: [(i128, i128); 8],
    floats: [(f64, f64); 3],
}

impl Default for Bounds {
    fn default() -> Bounds {
        let range = |t: parad_base::IntType| -> (i128, i128) {
            use parad_base::IntType::*;
            match t {
                I8 => (i8::MIN.into(), i8::MAX.into()),
                I16 => (i16::MIN.into(), i16::MAX.into()),
                I32 => (i32::MIN.into(), i32::MAX.into()),
                I64 => (i64::MIN.into(), i64::MAX.into()),
                U8 => (0, u8::MAX.into()),
                U16 => (0, u16::MAX.into()),
                U32 => (0, u32::MAX.into()),
                U64 => (0, u64::MAX.into()),
            }
        };
        Bounds {
            ints: parad_base::IntType::ALL.map(range),
            floats: [(0.0, 1.0); 3],
        }
    }
}

fn int_index(t: parad_base::IntType) -> usize {
    parad_base::IntType::ALL
        .iter()
        .position(|&u| u == t)
        .unwrap_or(0)
}

fn float_index(t: parad_base::FloatType) -> usize {
    match t {
        parad_base::FloatType::F16 => 0,
        parad_base::FloatType::F32 => 1,
        parad_base::FloatType::F64 => 2,
    }
}

impl Bounds {
    /// Sets the bounds of `ty` from `MIN:MAX` (literals of that type,
    /// suffix optional); an error says what is wrong.
    pub fn set(&mut self, ty: PrimType, text: &str) -> Result<(), String> {
        let (lo, hi) = text
            .split_once(':')
            .ok_or_else(|| format!("bounds `{text}` are not MIN:MAX"))?;
        let suffix = |s: &str| s.trim().trim_end_matches(ty.name()).to_string();
        match ty {
            PrimType::Int(t) => {
                let (min, max) = Bounds::default().ints[int_index(t)];
                let parse = |s: &str| -> Result<i128, String> {
                    let v: i128 = suffix(s)
                        .parse()
                        .map_err(|_| format!("`{s}` is not a {} value", ty.name()))?;
                    if v < min || v > max {
                        return Err(format!("{v} is out of the range of {}", ty.name()));
                    }
                    Ok(v)
                };
                let (a, b) = (parse(lo)?, parse(hi)?);
                if a > b {
                    return Err(format!("the lower bound {a} is above the upper bound {b}"));
                }
                self.ints[int_index(t)] = (a, b);
            }
            PrimType::Float(t) => {
                let parse = |s: &str| -> Result<f64, String> {
                    let v: f64 = suffix(s)
                        .parse()
                        .map_err(|_| format!("`{s}` is not a {} value", ty.name()))?;
                    if !v.is_finite() {
                        return Err(format!("`{s}` is not a finite bound"));
                    }
                    Ok(v)
                };
                let (a, b) = (parse(lo)?, parse(hi)?);
                if a > b {
                    return Err(format!("the lower bound {a} is above the upper bound {b}"));
                }
                self.floats[float_index(t)] = (a, b);
            }
            PrimType::Bool => return Err("booleans have no bounds".to_string()),
        }
        Ok(())
    }
}

/// Like [`try_random_value`], with elements drawn uniformly between the
/// inclusive `bounds` of their type (booleans: fair coin flips).
pub fn try_random_value_in(
    shape: &[usize],
    ty: PrimType,
    bounds: &Bounds,
    rng: &mut impl Rng,
) -> Result<Value, DataError> {
    let dims: String = shape.iter().map(|d| format!("[{d}]")).collect();
    let n = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| DataError::new(None, format!("too many elements: {dims}{ty}")))?;
    let mut data = ArrayData::try_with_capacity(ty, n).map_err(|()| {
        DataError::new(
            None,
            format!("out of memory: cannot allocate a random value of type {dims}{ty}"),
        )
    })?;
    for _ in 0..n {
        let s = match ty {
            PrimType::Int(t) => {
                let (a, b) = bounds.ints[int_index(t)];
                int_scalar(t, rng.gen_range(a..=b))
            }
            PrimType::Float(t) => {
                let (a, b) = bounds.floats[float_index(t)];
                let x = if a == b { a } else { rng.gen_range(a..=b) };
                match t {
                    parad_base::FloatType::F16 => crate::Scalar::F16(f16::from_f64(x)),
                    parad_base::FloatType::F32 => crate::Scalar::F32(x as f32),
                    parad_base::FloatType::F64 => crate::Scalar::F64(x),
                }
            }
            PrimType::Bool => crate::Scalar::Bool(rng.gen::<bool>()),
        };
        data.push(s);
    }
    Ok(if shape.is_empty() {
        Value::Scalar(data.get(0).expect("one element"))
    } else {
        Value::Array(ArrayValue {
            shape: shape.to_vec(),
            data,
        })
    })
}

/// `x` (within the range of `t`) as a scalar of type `t`.
fn int_scalar(t: parad_base::IntType, x: i128) -> crate::Scalar {
    use crate::Scalar as S;
    use parad_base::IntType::*;
    match t {
        I8 => S::I8(x as i8),
        I16 => S::I16(x as i16),
        I32 => S::I32(x as i32),
        I64 => S::I64(x as i64),
        U8 => S::U8(x as u8),
        U16 => S::U16(x as u16),
        U32 => S::U32(x as u32),
        U64 => S::U64(x as u64),
    }
}
