//! Comparing expected and actual values as `futhark test` does.
//!
//! Integers and booleans must be equal. Floats are equal when both are NaN,
//! both are infinite with the same sign, or they differ by at most
//! `rel * max(1, m)`, where `m` is the largest finite magnitude among the
//! *expected* elements of that value. This mirrors Futhark, which scales one
//! absolute tolerance per array by its largest expected element (0.2% by
//! default), so that tiny elements next to large ones are not held to a
//! tighter standard than the arithmetic that produced them.

use std::fmt;

use parad_base::PrimType;

use crate::text_write::scalar_to_text;
use crate::value::{ArrayData, Scalar, Value};

/// Float comparison tolerance; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub rel: f64,
}

impl Tolerance {
    /// Futhark's default: 0.2%.
    pub const DEFAULT: Tolerance = Tolerance { rel: 0.002 };
    /// Floats must be equal (NaN still equals NaN).
    pub const EXACT: Tolerance = Tolerance { rel: 0.0 };
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::DEFAULT
    }
}

/// How an actual value differs from the expected one.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// Element types or ranks differ; both are full type names like `[3]f32`.
    Type { expected: String, actual: String },
    /// Same element type and rank, different sizes.
    Shape {
        expected: Vec<usize>,
        actual: Vec<usize>,
        elem: PrimType,
    },
    /// Elements differ. `index` is the first differing element (empty for
    /// scalars); `count` of `total` elements differ.
    Elements {
        index: Vec<usize>,
        expected: Scalar,
        actual: Scalar,
        count: usize,
        total: usize,
        /// The float tolerance that was applied, if the elements are floats.
        tolerance: Option<f64>,
    },
    /// A different number of values (for [`compare_all`]).
    Count { expected: usize, actual: usize },
    /// A mismatch in the value at this position (for [`compare_all`]).
    InValue {
        index: usize,
        mismatch: Box<Mismatch>,
    },
}

fn shape_text(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Type { expected, actual } => {
                write!(f, "expected a value of type {expected}, got {actual}")
            }
            Mismatch::Shape {
                expected,
                actual,
                elem,
            } => write!(
                f,
                "expected an array of type {}{elem}, got {}{elem}",
                shape_text(expected),
                shape_text(actual)
            ),
            Mismatch::Elements {
                index,
                expected,
                actual,
                count,
                total,
                tolerance,
            } => {
                if !index.is_empty() {
                    let idx: Vec<String> = index.iter().map(|i| i.to_string()).collect();
                    write!(f, "at index [{}]: ", idx.join(", "))?;
                }
                write!(
                    f,
                    "expected {}, got {}",
                    scalar_to_text(*expected),
                    scalar_to_text(*actual)
                )?;
                if let Some(t) = tolerance {
                    write!(f, " (tolerance {t:e})")?;
                }
                if *total > 1 {
                    write!(f, "; {count} of {total} elements differ")?;
                }
                Ok(())
            }
            Mismatch::Count { expected, actual } => {
                write!(f, "expected {expected} values, got {actual}")
            }
            Mismatch::InValue { index, mismatch } => write!(f, "value #{index}: {mismatch}"),
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares with the default tolerance.
pub fn compare(expected: &Value, actual: &Value) -> Result<(), Mismatch> {
    compare_with(expected, actual, Tolerance::DEFAULT)
}

/// Compares two sequences of values (e.g. all results of an entry point).
pub fn compare_all(expected: &[Value], actual: &[Value], tol: Tolerance) -> Result<(), Mismatch> {
    if expected.len() != actual.len() {
        return Err(Mismatch::Count {
            expected: expected.len(),
            actual: actual.len(),
        });
    }
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        compare_with(e, a, tol).map_err(|m| Mismatch::InValue {
            index: i,
            mismatch: Box::new(m),
        })?;
    }
    Ok(())
}

pub fn compare_with(expected: &Value, actual: &Value, tol: Tolerance) -> Result<(), Mismatch> {
    if expected.elem_type() != actual.elem_type() || expected.rank() != actual.rank() {
        return Err(Mismatch::Type {
            expected: expected.type_name(),
            actual: actual.type_name(),
        });
    }
    if expected.shape() != actual.shape() {
        return Err(Mismatch::Shape {
            expected: expected.shape().to_vec(),
            actual: actual.shape().to_vec(),
            elem: expected.elem_type(),
        });
    }
    let shape = expected.shape();
    match (expected, actual) {
        (Value::Scalar(e), Value::Scalar(a)) => {
            compare_elems(&[], &scalar_data(*e), &scalar_data(*a), tol)
        }
        (Value::Array(e), Value::Array(a)) => compare_elems(shape, &e.data, &a.data, tol),
        _ => unreachable!("ranks were checked equal"),
    }
}

fn scalar_data(s: Scalar) -> ArrayData {
    let mut d = ArrayData::empty(s.prim_type());
    d.push(s);
    d
}

/// Largest finite magnitude, at least 1, times the relative tolerance.
fn threshold<T: Copy + Into<f64>>(expected: &[T], rel: f64) -> f64 {
    let m = expected
        .iter()
        .map(|&x| x.into().abs())
        .filter(|x| x.is_finite())
        .fold(1.0f64, f64::max);
    rel * m
}

fn floats_match(e: f64, a: f64, thr: f64) -> bool {
    if e.is_nan() || a.is_nan() {
        return e.is_nan() && a.is_nan();
    }
    if e.is_infinite() || a.is_infinite() {
        return e == a;
    }
    e == a || (e - a).abs() <= thr
}

fn compare_elems(
    shape: &[usize],
    expected: &ArrayData,
    actual: &ArrayData,
    tol: Tolerance,
) -> Result<(), Mismatch> {
    let total = expected.len();
    let mut first: Option<usize> = None;
    let mut count = 0;
    let mut note = |i: usize| {
        first.get_or_insert(i);
        count += 1;
    };
    let mut tolerance = None;
    macro_rules! exact {
        ($e:expr, $a:expr) => {
            for (i, (x, y)) in $e.iter().zip($a.iter()).enumerate() {
                if x != y {
                    note(i);
                }
            }
        };
    }
    macro_rules! float {
        ($e:expr, $a:expr, $conv:expr) => {{
            let ev: Vec<f64> = $e.iter().map(|&x| $conv(x)).collect();
            let thr = threshold(&ev, tol.rel);
            tolerance = Some(thr);
            for (i, (&x, &y)) in ev.iter().zip($a.iter()).enumerate() {
                if !floats_match(x, $conv(y), thr) {
                    note(i);
                }
            }
        }};
    }
    match (expected, actual) {
        (ArrayData::I8(e), ArrayData::I8(a)) => exact!(e, a),
        (ArrayData::I16(e), ArrayData::I16(a)) => exact!(e, a),
        (ArrayData::I32(e), ArrayData::I32(a)) => exact!(e, a),
        (ArrayData::I64(e), ArrayData::I64(a)) => exact!(e, a),
        (ArrayData::U8(e), ArrayData::U8(a)) => exact!(e, a),
        (ArrayData::U16(e), ArrayData::U16(a)) => exact!(e, a),
        (ArrayData::U32(e), ArrayData::U32(a)) => exact!(e, a),
        (ArrayData::U64(e), ArrayData::U64(a)) => exact!(e, a),
        (ArrayData::Bool(e), ArrayData::Bool(a)) => exact!(e, a),
        (ArrayData::F16(e), ArrayData::F16(a)) => float!(e, a, |x: half::f16| f64::from(x)),
        (ArrayData::F32(e), ArrayData::F32(a)) => float!(e, a, |x: f32| x as f64),
        (ArrayData::F64(e), ArrayData::F64(a)) => float!(e, a, |x: f64| x),
        _ => unreachable!("element types were checked equal"),
    }
    match first {
        None => Ok(()),
        Some(i) => Err(Mismatch::Elements {
            index: unflatten(i, shape),
            expected: expected.get(i).expect("index in range"),
            actual: actual.get(i).expect("index in range"),
            count,
            total,
            tolerance,
        }),
    }
}

/// The multi-dimensional index of flat (row-major) index `i`.
pub fn unflatten(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            idx[k] = i % d;
            i /= d;
        }
    }
    idx
}
