//! Printing values in Futhark's text format, as `futhark` prints results:
//! every scalar carries its type suffix, arrays with no elements are
//! written `empty(<type>)`, and floats are printed with the fewest digits
//! that read back to the same bits.

use std::fmt::Write;

use half::f16;

use crate::value::{ArrayValue, Scalar, Value};

/// The text form of a value, e.g. `[1i32, 2i32]` or `empty([0][3]f32)`.
pub fn to_text(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Scalar(s) => write_scalar(&mut out, *s),
        Value::Array(a) => {
            let _ = write_array(&mut out, a, &mut |_| Ok(()));
        }
    }
    out
}

/// Writes the text form of a value to `w` in pieces, so that a large
/// array is never held as one string.
pub fn write_text(v: &Value, w: &mut impl std::io::Write) -> std::io::Result<()> {
    match v {
        Value::Scalar(s) => w.write_all(scalar_to_text(*s).as_bytes()),
        Value::Array(a) => {
            let mut out = String::new();
            write_array(&mut out, a, &mut |chunk: &mut String| {
                if chunk.len() >= 1 << 16 {
                    w.write_all(chunk.as_bytes())?;
                    chunk.clear();
                }
                Ok(())
            })?;
            w.write_all(out.as_bytes())
        }
    }
}

/// Several values, one per line (each line ends with a newline).
pub fn values_to_text(vs: &[Value]) -> String {
    let mut out = String::new();
    for v in vs {
        out.push_str(&to_text(v));
        out.push('\n');
    }
    out
}

/// The text form of one scalar, e.g. `-1.5f32` or `f64.nan`.
pub fn scalar_to_text(s: Scalar) -> String {
    let mut out = String::new();
    write_scalar(&mut out, s);
    out
}

/// Writes `a` to `out`, calling `flush` after each element (it may empty
/// `out`).
fn write_array(
    out: &mut String,
    a: &ArrayValue,
    flush: &mut dyn FnMut(&mut String) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if a.data.is_empty() {
        out.push_str("empty(");
        for d in &a.shape {
            let _ = write!(out, "[{d}]");
        }
        out.push_str(a.elem_type().name());
        out.push(')');
        return Ok(());
    }
    // Walk the flat data, opening and closing brackets at row boundaries.
    let rank = a.shape.len();
    // strides[i] = number of elements in one sub-array at depth i.
    let mut strides = vec![1usize; rank];
    for i in (0..rank.saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * a.shape[i + 1];
    }
    let n = a.data.len();
    for i in 0..n {
        // Depths whose sub-array starts at element i need an opening bracket.
        let opens = if i == 0 {
            rank
        } else {
            strides.iter().filter(|&&s| i % s == 0).count() - 1
        };
        if i > 0 {
            out.push_str(", ");
        }
        for _ in 0..opens {
            out.push('[');
        }
        write_scalar(out, a.data.get(i).expect("index within data"));
        let closes = strides.iter().filter(|&&s| (i + 1) % s == 0).count();
        let closes = if i + 1 == n { rank } else { closes - 1 };
        for _ in 0..closes {
            out.push(']');
        }
        flush(out)?;
    }
    Ok(())
}

fn write_scalar(out: &mut String, s: Scalar) {
    let _ = match s {
        Scalar::I8(x) => write!(out, "{x}i8"),
        Scalar::I16(x) => write!(out, "{x}i16"),
        Scalar::I32(x) => write!(out, "{x}i32"),
        Scalar::I64(x) => write!(out, "{x}i64"),
        Scalar::U8(x) => write!(out, "{x}u8"),
        Scalar::U16(x) => write!(out, "{x}u16"),
        Scalar::U32(x) => write!(out, "{x}u32"),
        Scalar::U64(x) => write!(out, "{x}u64"),
        Scalar::Bool(b) => write!(out, "{b}"),
        Scalar::F16(x) => write_float(
            out,
            "f16",
            x.is_nan(),
            x.is_infinite(),
            x.is_sign_negative(),
            |o| {
                o.push_str(&shortest_f16(x));
                Ok(())
            },
        ),
        Scalar::F32(x) => write_float(out, "f32", x.is_nan(), x.is_infinite(), x < 0.0, |o| {
            write!(o, "{x:?}")
        }),
        Scalar::F64(x) => write_float(out, "f64", x.is_nan(), x.is_infinite(), x < 0.0, |o| {
            write!(o, "{x:?}")
        }),
    };
}

fn write_float(
    out: &mut String,
    ty: &str,
    nan: bool,
    inf: bool,
    neg: bool,
    digits: impl FnOnce(&mut String) -> std::fmt::Result,
) -> std::fmt::Result {
    if nan {
        write!(out, "{ty}.nan")
    } else if inf {
        write!(out, "{}{ty}.inf", if neg { "-" } else { "" })
    } else {
        // Rust's `{:?}` is the shortest round-tripping form, using an
        // exponent (`1e-7`) for very small or large magnitudes; both forms
        // are valid Futhark literals.
        digits(out)?;
        out.push_str(ty);
        Ok(())
    }
}

/// The shortest decimal that reads back (through f64, as the reader does)
/// to exactly `x`.
fn shortest_f16(x: f16) -> String {
    let wide = f32::from(x);
    for sig in 1..=5 {
        let candidate = format!("{:.*e}", sig - 1, wide);
        let Ok(back) = candidate.parse::<f64>() else {
            continue;
        };
        if f16::from_f64(back).to_bits() == x.to_bits() {
            // Print the candidate in the same style as f32/f64 values.
            let pretty = format!("{:?}", back as f32);
            let ok = pretty
                .parse::<f64>()
                .is_ok_and(|p| f16::from_f64(p).to_bits() == x.to_bits());
            return if ok { pretty } else { candidate };
        }
    }
    // Every f16 is exact in f32, so this always reads back.
    format!("{wide:?}")
}
