//! The value type exchanged between data files, the test runner and the
//! execution backends.

use half::f16;
pub use parad_base::Scalar;
use parad_base::{FloatType, IntType, PrimType};

/// Flat element storage of an array, one variant per element type.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

/// A regular array: `shape.iter().product()` elements in row-major order.
/// Shapes may contain zeros (`empty([0][3]f32)` has shape `[0, 3]`).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayValue {
    pub shape: Vec<usize>,
    pub data: ArrayData,
}

/// The type of a value as a program's entry point expects it: rank and
/// element type (for reading text values whose literals have no suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueType {
    pub rank: usize,
    pub elem: PrimType,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    Array(ArrayValue),
}

/// Applies `$body` to the vector inside any `ArrayData` variant.
#[macro_export]
macro_rules! with_array_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            $crate::ArrayData::I8($v) => $body,
            $crate::ArrayData::I16($v) => $body,
            $crate::ArrayData::I32($v) => $body,
            $crate::ArrayData::I64($v) => $body,
            $crate::ArrayData::U8($v) => $body,
            $crate::ArrayData::U16($v) => $body,
            $crate::ArrayData::U32($v) => $body,
            $crate::ArrayData::U64($v) => $body,
            $crate::ArrayData::F16($v) => $body,
            $crate::ArrayData::F32($v) => $body,
            $crate::ArrayData::F64($v) => $body,
            $crate::ArrayData::Bool($v) => $body,
        }
    };
}

impl ArrayData {
    /// Empty storage for elements of type `t`.
    pub fn empty(t: PrimType) -> ArrayData {
        match t {
            PrimType::Int(IntType::I8) => ArrayData::I8(vec![]),
            PrimType::Int(IntType::I16) => ArrayData::I16(vec![]),
            PrimType::Int(IntType::I32) => ArrayData::I32(vec![]),
            PrimType::Int(IntType::I64) => ArrayData::I64(vec![]),
            PrimType::Int(IntType::U8) => ArrayData::U8(vec![]),
            PrimType::Int(IntType::U16) => ArrayData::U16(vec![]),
            PrimType::Int(IntType::U32) => ArrayData::U32(vec![]),
            PrimType::Int(IntType::U64) => ArrayData::U64(vec![]),
            PrimType::Float(FloatType::F16) => ArrayData::F16(vec![]),
            PrimType::Float(FloatType::F32) => ArrayData::F32(vec![]),
            PrimType::Float(FloatType::F64) => ArrayData::F64(vec![]),
            PrimType::Bool => ArrayData::Bool(vec![]),
        }
    }

    /// Empty storage for elements of type `t` with room for `n` elements.
    pub fn with_capacity(t: PrimType, n: usize) -> ArrayData {
        let mut d = ArrayData::empty(t);
        with_array_data!(&mut d, v => v.reserve_exact(n));
        d
    }

    /// Like [`ArrayData::with_capacity`], but `Err` instead of aborting the
    /// process when the memory cannot be had.
    #[allow(clippy::result_unit_err)]
    pub fn try_with_capacity(t: PrimType, n: usize) -> Result<ArrayData, ()> {
        let mut d = ArrayData::empty(t);
        with_array_data!(&mut d, v => v.try_reserve_exact(n).map_err(|_| ()))?;
        Ok(d)
    }

    pub fn elem_type(&self) -> PrimType {
        match self {
            ArrayData::I8(_) => PrimType::Int(IntType::I8),
            ArrayData::I16(_) => PrimType::Int(IntType::I16),
            ArrayData::I32(_) => PrimType::Int(IntType::I32),
            ArrayData::I64(_) => PrimType::Int(IntType::I64),
            ArrayData::U8(_) => PrimType::Int(IntType::U8),
            ArrayData::U16(_) => PrimType::Int(IntType::U16),
            ArrayData::U32(_) => PrimType::Int(IntType::U32),
            ArrayData::U64(_) => PrimType::Int(IntType::U64),
            ArrayData::F16(_) => PrimType::Float(FloatType::F16),
            ArrayData::F32(_) => PrimType::Float(FloatType::F32),
            ArrayData::F64(_) => PrimType::Float(FloatType::F64),
            ArrayData::Bool(_) => PrimType::Bool,
        }
    }

    pub fn len(&self) -> usize {
        with_array_data!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at flat index `i`.
    pub fn get(&self, i: usize) -> Option<Scalar> {
        Some(match self {
            ArrayData::I8(v) => Scalar::I8(*v.get(i)?),
            ArrayData::I16(v) => Scalar::I16(*v.get(i)?),
            ArrayData::I32(v) => Scalar::I32(*v.get(i)?),
            ArrayData::I64(v) => Scalar::I64(*v.get(i)?),
            ArrayData::U8(v) => Scalar::U8(*v.get(i)?),
            ArrayData::U16(v) => Scalar::U16(*v.get(i)?),
            ArrayData::U32(v) => Scalar::U32(*v.get(i)?),
            ArrayData::U64(v) => Scalar::U64(*v.get(i)?),
            ArrayData::F16(v) => Scalar::F16(*v.get(i)?),
            ArrayData::F32(v) => Scalar::F32(*v.get(i)?),
            ArrayData::F64(v) => Scalar::F64(*v.get(i)?),
            ArrayData::Bool(v) => Scalar::Bool(*v.get(i)?),
        })
    }

    /// Appends a scalar; `false` (and nothing appended) if its type differs.
    pub fn push(&mut self, s: Scalar) -> bool {
        match (self, s) {
            (ArrayData::I8(v), Scalar::I8(x)) => v.push(x),
            (ArrayData::I16(v), Scalar::I16(x)) => v.push(x),
            (ArrayData::I32(v), Scalar::I32(x)) => v.push(x),
            (ArrayData::I64(v), Scalar::I64(x)) => v.push(x),
            (ArrayData::U8(v), Scalar::U8(x)) => v.push(x),
            (ArrayData::U16(v), Scalar::U16(x)) => v.push(x),
            (ArrayData::U32(v), Scalar::U32(x)) => v.push(x),
            (ArrayData::U64(v), Scalar::U64(x)) => v.push(x),
            (ArrayData::F16(v), Scalar::F16(x)) => v.push(x),
            (ArrayData::F32(v), Scalar::F32(x)) => v.push(x),
            (ArrayData::F64(v), Scalar::F64(x)) => v.push(x),
            (ArrayData::Bool(v), Scalar::Bool(x)) => v.push(x),
            _ => return false,
        }
        true
    }
}

impl ArrayValue {
    /// An array of the given shape; `None` unless `data` holds exactly
    /// `shape.iter().product()` elements.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Option<ArrayValue> {
        let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
        (n == data.len()).then_some(ArrayValue { shape, data })
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The sub-array at position `at` (row-major) of the leading `depth`
    /// dimensions: its shape is the remaining dimensions (none when
    /// `depth` is the rank). `None` when `depth` exceeds the rank or `at`
    /// is out of range.
    pub fn sub_array(&self, depth: usize, at: usize) -> Option<ArrayValue> {
        let inner: usize = self.shape.get(depth..)?.iter().product();
        let mut data = ArrayData::with_capacity(self.elem_type(), inner);
        for i in 0..inner {
            if !data.push(self.data.get(at.checked_mul(inner)?.checked_add(i)?)?) {
                return None;
            }
        }
        ArrayValue::new(self.shape[depth..].to_vec(), data)
    }
}

impl Value {
    /// Element type of a scalar or array.
    pub fn elem_type(&self) -> PrimType {
        match self {
            Value::Scalar(s) => s.prim_type(),
            Value::Array(a) => a.elem_type(),
        }
    }

    pub fn rank(&self) -> usize {
        match self {
            Value::Scalar(_) => 0,
            Value::Array(a) => a.rank(),
        }
    }

    pub fn shape(&self) -> &[usize] {
        match self {
            Value::Scalar(_) => &[],
            Value::Array(a) => &a.shape,
        }
    }

    /// The Futhark type, e.g. `[2][3]f32`.
    pub fn type_name(&self) -> String {
        let mut s = String::new();
        for d in self.shape() {
            s.push_str(&format!("[{d}]"));
        }
        s.push_str(self.elem_type().name());
        s
    }
}
