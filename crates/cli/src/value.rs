//! Values that go into and come out of entry points, and their types.
//!
//! A [`Value`] is a scalar, an array of scalars (row-major, any rank), a
//! record or tuple of values, or an opaque value of another type (a sum,
//! an abstract type, an array of records): what Futhark's C API calls
//! primitives, arrays and opaque types. Scalars convert from and to Rust
//! numbers (`From`, `TryFrom`); arrays from and to [`ndarray`] arrays, of
//! any dimension, moving the elements without copying when the array is
//! in standard (row-major, contiguous) layout.

use half::f16;
use ndarray::{ArrayBase, ArrayD, ArrayViewD, Data, Dimension, IxDyn};
use parad_base::{FloatType, IntType, PrimType, Scalar};
use parad_values::{ArrayData, ArrayValue};
use std::fmt;

/// A value of an entry point's parameter or result.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    /// An array of scalars.
    Array(ArrayValue),
    /// A record or tuple (a tuple's fields are named `0`, `1`, …).
    Record(Record),
    /// A value of another opaque type, only to be passed back to an entry
    /// point of the same program that takes its type.
    Opaque(Opaque),
}

/// A record or tuple value: its type's name and its fields in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The type's name as the program writes it (`particle`,
    /// `(f64, []f64)`).
    pub type_name: String,
    pub fields: Vec<(String, Value)>,
}

impl Record {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Whether this is a tuple (fields `0`, `1`, … in order).
    pub fn is_tuple(&self) -> bool {
        is_tuple(self.fields.iter().map(|(n, _)| n.as_str()))
    }
}

pub(crate) fn is_tuple<'a>(names: impl Iterator<Item = &'a str>) -> bool {
    let mut n = 0;
    for (k, name) in names.enumerate() {
        if name != k.to_string() {
            return false;
        }
        n += 1;
    }
    n != 1
}

/// A value of an opaque type that is neither a record nor a tuple: its
/// representation is parad's, kept as it came out of the program.
#[derive(Clone, Debug, PartialEq)]
pub struct Opaque {
    pub type_name: String,
    pub(crate) leaves: Vec<parad_values::Value>,
}

/// The type of a parameter or result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Scalar(PrimType),
    /// An array of scalars: element type and rank.
    Array(PrimType, usize),
    /// A record or tuple type: its name and its fields' names and types.
    Record {
        name: String,
        fields: Vec<(String, Type)>,
    },
    /// Another opaque type, by name.
    Opaque(String),
}

impl Type {
    /// Futhark's name of the type (`f64`, `[][]f32`, `particle`).
    pub fn name(&self) -> String {
        match self {
            Type::Scalar(t) => t.name().to_string(),
            Type::Array(t, r) => format!("{}{}", "[]".repeat(*r), t.name()),
            Type::Record { name, .. } | Type::Opaque(name) => name.clone(),
        }
    }

    /// Whether values of this type have a derivative: floating-point
    /// scalars and arrays, and records and tuples whose fields all do.
    pub fn is_differentiable(&self) -> bool {
        match self {
            Type::Scalar(t) | Type::Array(t, _) => matches!(t, PrimType::Float(_)),
            Type::Record { fields, .. } => {
                !fields.is_empty() && fields.iter().all(|(_, t)| t.is_differentiable())
            }
            Type::Opaque(_) => false,
        }
    }

    /// The fields of a tuple type, in order.
    pub fn tuple_fields(&self) -> Option<Vec<&Type>> {
        match self {
            Type::Record { fields, .. } if is_tuple(fields.iter().map(|(n, _)| n.as_str())) => {
                Some(fields.iter().map(|(_, t)| t).collect())
            }
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Value {
    /// The value's type, as far as the value shows it (an empty record
    /// type has the record's name).
    pub fn type_name(&self) -> String {
        match self {
            Value::Scalar(s) => s.prim_type().name().to_string(),
            Value::Array(a) => format!("{}{}", "[]".repeat(a.rank()), a.elem_type().name()),
            Value::Record(r) => r.type_name.clone(),
            Value::Opaque(o) => o.type_name.clone(),
        }
    }

    /// The array's shape (empty for anything else).
    pub fn shape(&self) -> &[usize] {
        match self {
            Value::Array(a) => &a.shape,
            _ => &[],
        }
    }

    /// The array as an `ndarray` view of element type `T`, without
    /// copying; `None` for another element type or a non-array.
    pub fn as_array<T: Element>(&self) -> Option<ArrayViewD<'_, T>> {
        match self {
            Value::Array(a) => {
                let data = T::slice(&a.data)?;
                ArrayViewD::from_shape(IxDyn(&a.shape), data).ok()
            }
            _ => None,
        }
    }

    /// A scalar of type `T`; `None` for another type.
    pub fn as_scalar<T: Element>(&self) -> Option<T> {
        match self {
            Value::Scalar(s) => T::from_scalar(*s),
            _ => None,
        }
    }

    /// An array of the given shape and row-major elements; `None` when
    /// their number is not the shape's product.
    pub fn array<T: Element>(shape: &[usize], data: Vec<T>) -> Option<Value> {
        ArrayValue::new(shape.to_vec(), T::into_data(data)).map(Value::Array)
    }
}

/// The primitive types that values hold: `i8` … `u64`, `f16` (from the
/// `half` crate), `f32`, `f64` and `bool`.
pub trait Element: Copy + sealed::Sealed + 'static {
    /// Futhark's type of the elements.
    const TYPE: PrimType;
    #[doc(hidden)]
    fn into_data(v: Vec<Self>) -> ArrayData;
    #[doc(hidden)]
    fn from_data(d: ArrayData) -> Result<Vec<Self>, ArrayData>;
    #[doc(hidden)]
    fn slice(d: &ArrayData) -> Option<&[Self]>;
    #[doc(hidden)]
    fn scalar(self) -> Scalar;
    #[doc(hidden)]
    fn from_scalar(s: Scalar) -> Option<Self>;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! element {
    ($t:ty, $variant:ident, $prim:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const TYPE: PrimType = $prim;
            fn into_data(v: Vec<Self>) -> ArrayData {
                ArrayData::$variant(v)
            }
            fn from_data(d: ArrayData) -> Result<Vec<Self>, ArrayData> {
                match d {
                    ArrayData::$variant(v) => Ok(v),
                    other => Err(other),
                }
            }
            fn slice(d: &ArrayData) -> Option<&[Self]> {
                match d {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn scalar(self) -> Scalar {
                Scalar::$variant(self)
            }
            fn from_scalar(s: Scalar) -> Option<Self> {
                match s {
                    Scalar::$variant(x) => Some(x),
                    _ => None,
                }
            }
        }

        impl From<$t> for Value {
            fn from(x: $t) -> Value {
                Value::Scalar(Scalar::$variant(x))
            }
        }

        impl TryFrom<&Value> for $t {
            type Error = ConversionError;
            fn try_from(v: &Value) -> Result<$t, ConversionError> {
                v.as_scalar::<$t>()
                    .ok_or_else(|| ConversionError::new(v, <$t as Element>::TYPE.name()))
            }
        }

        impl TryFrom<Value> for $t {
            type Error = ConversionError;
            fn try_from(v: Value) -> Result<$t, ConversionError> {
                <$t>::try_from(&v)
            }
        }
    };
}

element!(i8, I8, PrimType::Int(IntType::I8));
element!(i16, I16, PrimType::Int(IntType::I16));
element!(i32, I32, PrimType::Int(IntType::I32));
element!(i64, I64, PrimType::Int(IntType::I64));
element!(u8, U8, PrimType::Int(IntType::U8));
element!(u16, U16, PrimType::Int(IntType::U16));
element!(u32, U32, PrimType::Int(IntType::U32));
element!(u64, U64, PrimType::Int(IntType::U64));
element!(f16, F16, PrimType::Float(FloatType::F16));
element!(f32, F32, PrimType::Float(FloatType::F32));
element!(f64, F64, PrimType::Float(FloatType::F64));
element!(bool, Bool, PrimType::Bool);

/// A value that is not what a conversion asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a value of type {expected}, got {found}")]
pub struct ConversionError {
    pub expected: String,
    pub found: String,
}

impl ConversionError {
    fn new(v: &Value, expected: impl Into<String>) -> ConversionError {
        ConversionError {
            expected: expected.into(),
            found: v.type_name(),
        }
    }
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Value {
        Value::Scalar(s)
    }
}

impl From<ArrayValue> for Value {
    fn from(a: ArrayValue) -> Value {
        Value::Array(a)
    }
}

impl From<Record> for Value {
    fn from(r: Record) -> Value {
        Value::Record(r)
    }
}

/// The elements of `a` in row-major order: moved out of its buffer when
/// it is in standard layout and fills it, else copied.
fn row_major<T: Element, D: Dimension>(a: ndarray::Array<T, D>) -> Vec<T> {
    if a.is_standard_layout() {
        let n = a.len();
        let (v, offset) = a.into_raw_vec_and_offset();
        if v.len() == n && offset.unwrap_or(0) == 0 {
            return v;
        }
        let start = offset.unwrap_or(0);
        return v[start..start + n].to_vec();
    }
    a.iter().copied().collect()
}

impl<T: Element, D: Dimension> From<ndarray::Array<T, D>> for Value {
    /// Moves the elements when `a` is in standard layout (a freshly made
    /// array is); copies them in row-major order otherwise.
    fn from(a: ndarray::Array<T, D>) -> Value {
        let shape = a.shape().to_vec();
        Value::Array(ArrayValue {
            shape,
            data: T::into_data(row_major(a)),
        })
    }
}

impl<'a, T: Element, D: Dimension> From<ndarray::ArrayView<'a, T, D>> for Value {
    /// Copies the elements in row-major order (a value owns them).
    fn from(a: ndarray::ArrayView<'a, T, D>) -> Value {
        from_view(&a)
    }
}

fn from_view<S: Data<Elem = T>, T: Element, D: Dimension>(a: &ArrayBase<S, D>) -> Value {
    let data = match a.as_slice() {
        Some(s) => s.to_vec(),
        None => a.iter().copied().collect(),
    };
    Value::Array(ArrayValue {
        shape: a.shape().to_vec(),
        data: T::into_data(data),
    })
}

impl<T: Element> TryFrom<Value> for ArrayD<T> {
    type Error = ConversionError;
    /// Moves the elements into the array (no copy).
    fn try_from(v: Value) -> Result<ArrayD<T>, ConversionError> {
        let expected = || format!("[]{}", T::TYPE.name());
        match v {
            Value::Array(a) => {
                let found = format!("{}{}", "[]".repeat(a.rank()), a.elem_type().name());
                let shape = a.shape;
                let data = T::from_data(a.data).map_err(|_| ConversionError {
                    expected: expected(),
                    found: found.clone(),
                })?;
                ArrayD::from_shape_vec(IxDyn(&shape), data).map_err(|_| ConversionError {
                    expected: expected(),
                    found,
                })
            }
            other => Err(ConversionError::new(&other, expected())),
        }
    }
}

impl<T: Element> TryFrom<&Value> for ArrayD<T> {
    type Error = ConversionError;
    /// Copies the elements into a new array.
    fn try_from(v: &Value) -> Result<ArrayD<T>, ConversionError> {
        v.as_array::<T>()
            .map(|a| a.to_owned())
            .ok_or_else(|| ConversionError::new(v, format!("[]{}", T::TYPE.name())))
    }
}

impl fmt::Display for Value {
    /// Futhark's text format (`1.5f64`, `[1i32, 2i32]`); records as
    /// `{name = value, …}` and tuples as `(a, b)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Scalar(s) => {
                f.write_str(&parad_values::to_text(&parad_values::Value::Scalar(*s)))
            }
            Value::Array(a) => f.write_str(&parad_values::to_text(&parad_values::Value::Array(
                a.clone(),
            ))),
            Value::Record(r) => {
                let tuple = r.is_tuple();
                f.write_str(if tuple { "(" } else { "{" })?;
                for (k, (name, v)) in r.fields.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    if !tuple {
                        write!(f, "{name} = ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(if tuple { ")" } else { "}" })
            }
            Value::Opaque(o) => write!(f, "<opaque {}>", o.type_name),
        }
    }
}
