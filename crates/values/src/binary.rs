//! Futhark's binary value format: `b`, version byte 2, rank byte, a
//! four-character type name, `rank` little-endian 64-bit dimensions, then
//! the elements in row-major order, little-endian.

use half::f16;
use parad_base::{FloatType, IntType, PrimType};

use crate::error::DataError;
use crate::value::{ArrayData, ArrayValue, Scalar, Value};
use crate::with_array_data;

pub const BINARY_VERSION: u8 = 2;

/// The four-byte type name used in binary headers.
pub fn binary_type_name(t: PrimType) -> &'static [u8; 4] {
    match t {
        PrimType::Int(IntType::I8) => b"  i8",
        PrimType::Int(IntType::I16) => b" i16",
        PrimType::Int(IntType::I32) => b" i32",
        PrimType::Int(IntType::I64) => b" i64",
        PrimType::Int(IntType::U8) => b"  u8",
        PrimType::Int(IntType::U16) => b" u16",
        PrimType::Int(IntType::U32) => b" u32",
        PrimType::Int(IntType::U64) => b" u64",
        PrimType::Float(FloatType::F16) => b" f16",
        PrimType::Float(FloatType::F32) => b" f32",
        PrimType::Float(FloatType::F64) => b" f64",
        PrimType::Bool => b"bool",
    }
}

fn type_from_binary_name(name: &[u8]) -> Option<PrimType> {
    PrimType::all().find(|&t| binary_type_name(t) == name)
}

/// Appends the binary encoding of `v` to `out`.
///
/// Panics if the value has rank above 255, which the format cannot express
/// (no reader in this crate produces such values).
pub fn write_binary(v: &Value, out: &mut Vec<u8>) {
    let (shape, t) = (v.shape(), v.elem_type());
    let rank = u8::try_from(shape.len()).expect("binary format supports rank at most 255");
    out.push(b'b');
    out.push(BINARY_VERSION);
    out.push(rank);
    out.extend_from_slice(binary_type_name(t));
    for &d in shape {
        out.extend_from_slice(&(d as u64).to_le_bytes());
    }
    match v {
        Value::Scalar(s) => write_scalar(*s, out),
        Value::Array(a) => write_elems(&a.data, out),
    }
}

fn write_scalar(s: Scalar, out: &mut Vec<u8>) {
    match s {
        Scalar::I8(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::I16(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::I32(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::I64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::U8(x) => out.push(x),
        Scalar::U16(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::U32(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::U64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::F16(x) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
        Scalar::F32(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::F64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Scalar::Bool(x) => out.push(x as u8),
    }
}

fn write_elems(data: &ArrayData, out: &mut Vec<u8>) {
    out.reserve(data.len() * data.elem_type().size());
    match data {
        ArrayData::U8(v) => out.extend_from_slice(v),
        ArrayData::Bool(v) => out.extend(v.iter().map(|&b| b as u8)),
        ArrayData::F16(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_bits().to_le_bytes())),
        ArrayData::I8(v) => out.extend(v.iter().map(|&x| x as u8)),
        ArrayData::I16(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::I32(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::I64(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::U16(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::U32(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::U64(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::F32(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        ArrayData::F64(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
    }
}

/// Reads one binary value starting at `input[start]` (which must be `b`).
/// Returns the value and the offset just past it. Error offsets are
/// relative to the start of `input`.
pub(crate) fn read_binary_value(input: &[u8], start: usize) -> Result<(Value, usize), DataError> {
    let header_len = 7;
    if input.len() - start < header_len {
        return Err(DataError::at_byte(
            start,
            format!(
                "truncated binary value: expected a {header_len}-byte header, found {} bytes",
                input.len() - start
            ),
        ));
    }
    if input[start] != b'b' {
        return Err(DataError::at_byte(
            start,
            "binary value must start with 'b'",
        ));
    }
    let version = input[start + 1];
    if version != BINARY_VERSION {
        return Err(DataError::at_byte(
            start + 1,
            format!("unsupported binary format version {version} (expected {BINARY_VERSION})"),
        ));
    }
    let rank = input[start + 2] as usize;
    let tname = &input[start + 3..start + 7];
    let t = type_from_binary_name(tname).ok_or_else(|| {
        DataError::at_byte(
            start + 3,
            format!("unknown binary element type \"{}\"", tname.escape_ascii()),
        )
    })?;
    let mut pos = start + header_len;

    let shape_bytes = rank * 8;
    if input.len() - pos < shape_bytes {
        return Err(DataError::at_byte(
            pos,
            format!(
                "truncated binary value: expected {shape_bytes} bytes of shape for rank {rank}, found {}",
                input.len() - pos
            ),
        ));
    }
    let mut shape = Vec::with_capacity(rank);
    for _ in 0..rank {
        let d = i64::from_le_bytes(input[pos..pos + 8].try_into().unwrap());
        let d = usize::try_from(d).map_err(|_| {
            DataError::at_byte(pos, format!("invalid array dimension {d} in binary value"))
        })?;
        shape.push(d);
        pos += 8;
    }

    // Check the claimed size against the input before allocating anything.
    let elem_size = t.size();
    let available = input.len() - pos;
    let too_big = || {
        DataError::at_byte(
            pos,
            format!(
                "truncated binary value: shape {} needs more than the {available} bytes left",
                shape.iter().map(|d| format!("[{d}]")).collect::<String>()
            ),
        )
    };
    let count = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(too_big)?;
    let nbytes = count.checked_mul(elem_size).ok_or_else(too_big)?;
    if nbytes > available {
        return Err(DataError::at_byte(
            pos,
            format!(
                "truncated binary value: expected {nbytes} bytes of {t} data, found {available}"
            ),
        ));
    }
    let bytes = &input[pos..pos + nbytes];
    let data = decode_elems(t, bytes, pos)?;
    let end = pos + nbytes;
    let value = if rank == 0 {
        Value::Scalar(data.get(0).expect("a rank-0 value has one element"))
    } else {
        Value::Array(ArrayValue { shape, data })
    };
    Ok((value, end))
}

/// Decodes little-endian elements; `base` is the offset of `bytes` in the
/// input, for error messages.
fn decode_elems(t: PrimType, bytes: &[u8], base: usize) -> Result<ArrayData, DataError> {
    macro_rules! le {
        ($ty:ty, $conv:expr) => {
            bytes
                .chunks_exact(std::mem::size_of::<$ty>())
                .map(|c| $conv(<$ty>::from_le_bytes(c.try_into().unwrap())))
                .collect()
        };
    }
    let mut data = ArrayData::empty(t);
    match &mut data {
        ArrayData::I8(v) => *v = bytes.iter().map(|&b| b as i8).collect(),
        ArrayData::U8(v) => *v = bytes.to_vec(),
        ArrayData::I16(v) => *v = le!(i16, |x| x),
        ArrayData::I32(v) => *v = le!(i32, |x| x),
        ArrayData::I64(v) => *v = le!(i64, |x| x),
        ArrayData::U16(v) => *v = le!(u16, |x| x),
        ArrayData::U32(v) => *v = le!(u32, |x| x),
        ArrayData::U64(v) => *v = le!(u64, |x| x),
        ArrayData::F16(v) => *v = le!(u16, f16::from_bits),
        ArrayData::F32(v) => *v = le!(f32, |x| x),
        ArrayData::F64(v) => *v = le!(f64, |x| x),
        ArrayData::Bool(v) => {
            if let Some(i) = bytes.iter().position(|&b| b > 1) {
                return Err(DataError::at_byte(
                    base + i,
                    format!("invalid bool byte {} (must be 0 or 1)", bytes[i]),
                ));
            }
            *v = bytes.iter().map(|&b| b == 1).collect();
        }
    }
    debug_assert_eq!(
        with_array_data!(&data, v => v.len()),
        bytes.len() / t.size()
    );
    Ok(data)
}
