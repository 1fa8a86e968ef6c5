//! Futhark's binary value format: `b`, version byte 2, rank byte, a
//! four-character type name, `rank` little-endian 64-bit dimensions, then
//! the elements in row-major order, little-endian.

use half::f16;
use parad_base::{FloatType, IntType, PrimType};

use crate::error::DataError;
use crate::value::{ArrayData, ArrayValue, Scalar, Value};

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
    write_binary_to(v, out).expect("writing to a Vec cannot fail")
}

/// Writes the binary encoding of `v` to `w` in pieces of at most 64 KiB,
/// so that a large array is never held a second time as bytes.
///
/// Panics if the value has rank above 255 (see [`write_binary`]).
pub fn write_binary_to(v: &Value, w: &mut impl std::io::Write) -> std::io::Result<()> {
    let (shape, t) = (v.shape(), v.elem_type());
    let rank = u8::try_from(shape.len()).expect("binary format supports rank at most 255");
    let mut out = Vec::with_capacity(CHUNK);
    out.push(b'b');
    out.push(BINARY_VERSION);
    out.push(rank);
    out.extend_from_slice(binary_type_name(t));
    for &d in shape {
        out.extend_from_slice(&(d as u64).to_le_bytes());
    }
    match v {
        Value::Scalar(s) => write_scalar(*s, &mut out),
        Value::Array(a) => return write_elems(&a.data, out, w),
    }
    w.write_all(&out)
}

/// Bytes encoded at a time by [`write_binary_to`].
const CHUNK: usize = 1 << 16;

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

/// Writes `out` (the header so far) and then the elements of `data`,
/// encoding [`CHUNK`] bytes at a time into `out`.
fn write_elems(
    data: &ArrayData,
    mut out: Vec<u8>,
    w: &mut impl std::io::Write,
) -> std::io::Result<()> {
    macro_rules! le {
        ($v:expr, $enc:expr) => {{
            let size = std::mem::size_of_val(&$enc($v.first().copied().unwrap_or_default()));
            for chunk in $v.chunks((CHUNK / size).max(1)) {
                chunk.iter().for_each(|&x| out.extend_from_slice(&$enc(x)));
                w.write_all(&out)?;
                out.clear();
            }
        }};
    }
    match data {
        ArrayData::U8(v) => {
            w.write_all(&out)?;
            out.clear();
            w.write_all(v)?;
        }
        ArrayData::Bool(v) => le!(v, |b: bool| [b as u8]),
        ArrayData::I8(v) => le!(v, |x: i8| x.to_le_bytes()),
        ArrayData::F16(v) => le!(v, |x: f16| x.to_bits().to_le_bytes()),
        ArrayData::I16(v) => le!(v, |x: i16| x.to_le_bytes()),
        ArrayData::I32(v) => le!(v, |x: i32| x.to_le_bytes()),
        ArrayData::I64(v) => le!(v, |x: i64| x.to_le_bytes()),
        ArrayData::U16(v) => le!(v, |x: u16| x.to_le_bytes()),
        ArrayData::U32(v) => le!(v, |x: u32| x.to_le_bytes()),
        ArrayData::U64(v) => le!(v, |x: u64| x.to_le_bytes()),
        ArrayData::F32(v) => le!(v, |x: f32| x.to_le_bytes()),
        ArrayData::F64(v) => le!(v, |x: f64| x.to_le_bytes()),
    }
    // The header of an array without elements.
    w.write_all(&out)
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
    let (rank, t) = parse_header(&input[start..start + header_len], start)?;
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
    let shape = parse_shape(&input[pos..pos + shape_bytes], pos)?;
    pos += shape_bytes;

    // Check the claimed size against the input before allocating anything.
    let available = input.len() - pos;
    let (count, nbytes) = payload_size(&shape, t, pos, Some(available))?;
    let bytes = &input[pos..pos + nbytes];
    let mut data = alloc_elems(t, count, &shape, pos)?;
    decode_into(&mut data, bytes, pos)?;
    let end = pos + nbytes;
    let value = if rank == 0 {
        Value::Scalar(data.get(0).expect("a rank-0 value has one element"))
    } else {
        Value::Array(ArrayValue { shape, data })
    };
    Ok((value, end))
}

/// The element type and rank in a 7-byte header read at offset `start`.
pub(crate) fn parse_header(h: &[u8], start: usize) -> Result<(usize, PrimType), DataError> {
    if h[0] != b'b' {
        return Err(DataError::at_byte(
            start,
            "binary value must start with 'b'",
        ));
    }
    let version = h[1];
    if version != BINARY_VERSION {
        return Err(DataError::at_byte(
            start + 1,
            format!("unsupported binary format version {version} (expected {BINARY_VERSION})"),
        ));
    }
    let rank = h[2] as usize;
    let tname = &h[3..7];
    let t = type_from_binary_name(tname).ok_or_else(|| {
        DataError::at_byte(
            start + 3,
            format!("unknown binary element type \"{}\"", tname.escape_ascii()),
        )
    })?;
    Ok((rank, t))
}

/// The dimensions in `bytes` (8 per dimension), read at offset `pos`.
pub(crate) fn parse_shape(bytes: &[u8], mut pos: usize) -> Result<Vec<usize>, DataError> {
    let mut shape = Vec::with_capacity(bytes.len() / 8);
    for c in bytes.chunks_exact(8) {
        let d = i64::from_le_bytes(c.try_into().unwrap());
        let d = usize::try_from(d).map_err(|_| {
            DataError::at_byte(pos, format!("invalid array dimension {d} in binary value"))
        })?;
        shape.push(d);
        pos += 8;
    }
    Ok(shape)
}

/// The number of elements of shape `shape` and their size in bytes, for
/// data starting at offset `pos`; an error if they exceed `available`
/// bytes (when known) or the address space.
pub(crate) fn payload_size(
    shape: &[usize],
    t: PrimType,
    pos: usize,
    available: Option<usize>,
) -> Result<(usize, usize), DataError> {
    let too_big = || {
        let shown = shape.iter().map(|d| format!("[{d}]")).collect::<String>();
        DataError::at_byte(
            pos,
            match available {
                Some(n) => format!(
                    "truncated binary value: shape {shown} needs more than the {n} bytes left"
                ),
                None => format!("binary value of shape {shown} is too large"),
            },
        )
    };
    let count = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(too_big)?;
    let nbytes = count.checked_mul(t.size()).ok_or_else(too_big)?;
    if let Some(available) = available.filter(|&n| nbytes > n) {
        return Err(DataError::at_byte(
            pos,
            format!(
                "truncated binary value: expected {nbytes} bytes of {t} data, found {available}"
            ),
        ));
    }
    Ok((count, nbytes))
}

/// Room for `count` elements of type `t`, or an error (at byte `at`) when
/// the memory cannot be had.
pub(crate) fn alloc_elems(
    t: PrimType,
    count: usize,
    shape: &[usize],
    at: usize,
) -> Result<ArrayData, DataError> {
    ArrayData::try_with_capacity(t, count).map_err(|()| {
        DataError::at_byte(
            at,
            format!(
                "out of memory: cannot allocate {} bytes for a binary value of type {}{t}",
                count.saturating_mul(t.size()),
                shape.iter().map(|d| format!("[{d}]")).collect::<String>()
            ),
        )
    })
}

/// Decodes little-endian elements of `data`'s type from `bytes` (a whole
/// number of elements) and appends them; `base` is the offset of `bytes`
/// in the input, for error messages. `data` must have room for them.
pub(crate) fn decode_into(
    data: &mut ArrayData,
    bytes: &[u8],
    base: usize,
) -> Result<(), DataError> {
    macro_rules! le {
        ($v:expr, $ty:ty, $conv:expr) => {
            $v.extend(
                bytes
                    .chunks_exact(std::mem::size_of::<$ty>())
                    .map(|c| $conv(<$ty>::from_le_bytes(c.try_into().unwrap()))),
            )
        };
    }
    match data {
        ArrayData::I8(v) => v.extend(bytes.iter().map(|&b| b as i8)),
        ArrayData::U8(v) => v.extend_from_slice(bytes),
        ArrayData::I16(v) => le!(v, i16, |x| x),
        ArrayData::I32(v) => le!(v, i32, |x| x),
        ArrayData::I64(v) => le!(v, i64, |x| x),
        ArrayData::U16(v) => le!(v, u16, |x| x),
        ArrayData::U32(v) => le!(v, u32, |x| x),
        ArrayData::U64(v) => le!(v, u64, |x| x),
        ArrayData::F16(v) => le!(v, u16, f16::from_bits),
        ArrayData::F32(v) => le!(v, f32, |x| x),
        ArrayData::F64(v) => le!(v, f64, |x| x),
        ArrayData::Bool(v) => {
            if let Some(i) = bytes.iter().position(|&b| b > 1) {
                return Err(DataError::at_byte(
                    base + i,
                    format!("invalid bool byte {} (must be 0 or 1)", bytes[i]),
                ));
            }
            v.extend(bytes.iter().map(|&b| b == 1));
        }
    }
    Ok(())
}
