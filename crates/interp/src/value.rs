//! Run-time values: scalars, arrays as shared reference-counted buffers
//! (so that copying a value is O(1) and an update of an unshared array is
//! in place), and accumulators.

use crate::error::Msg;
use parad_base::PrimType;
use parad_core::AccOp;
use parad_values::{ArrayData, ArrayValue, Scalar, Value};
use std::cell::Cell;
use std::rc::Rc;

/// Applies `$e` to the vector inside `$d` and wraps the resulting vector in
/// the same `ArrayData` variant.
macro_rules! map_data {
    ($d:expr, $v:ident => $e:expr) => {
        match $d {
            ArrayData::I8($v) => ArrayData::I8($e),
            ArrayData::I16($v) => ArrayData::I16($e),
            ArrayData::I32($v) => ArrayData::I32($e),
            ArrayData::I64($v) => ArrayData::I64($e),
            ArrayData::U8($v) => ArrayData::U8($e),
            ArrayData::U16($v) => ArrayData::U16($e),
            ArrayData::U32($v) => ArrayData::U32($e),
            ArrayData::U64($v) => ArrayData::U64($e),
            ArrayData::F16($v) => ArrayData::F16($e),
            ArrayData::F32($v) => ArrayData::F32($e),
            ArrayData::F64($v) => ArrayData::F64($e),
            ArrayData::Bool($v) => ArrayData::Bool($e),
        }
    };
}

/// Applies `$e` to the vectors inside two `ArrayData` of the same variant;
/// `$else` when the variants differ.
macro_rules! zip_data {
    ($a:expr, $b:expr, $x:ident, $y:ident => $e:expr, $else:expr) => {
        match ($a, $b) {
            (ArrayData::I8($x), ArrayData::I8($y)) => $e,
            (ArrayData::I16($x), ArrayData::I16($y)) => $e,
            (ArrayData::I32($x), ArrayData::I32($y)) => $e,
            (ArrayData::I64($x), ArrayData::I64($y)) => $e,
            (ArrayData::U8($x), ArrayData::U8($y)) => $e,
            (ArrayData::U16($x), ArrayData::U16($y)) => $e,
            (ArrayData::U32($x), ArrayData::U32($y)) => $e,
            (ArrayData::U64($x), ArrayData::U64($y)) => $e,
            (ArrayData::F16($x), ArrayData::F16($y)) => $e,
            (ArrayData::F32($x), ArrayData::F32($y)) => $e,
            (ArrayData::F64($x), ArrayData::F64($y)) => $e,
            (ArrayData::Bool($x), ArrayData::Bool($y)) => $e,
            _ => $else,
        }
    };
}

/// A regular array: `shape.iter().product()` elements in row-major order.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<usize>,
    pub data: Rc<ArrayData>,
}

/// The state of an accumulator: the arrays it writes to and its operator
/// (`None`: updates overwrite).
#[derive(Clone, Debug)]
pub struct Acc {
    pub arrays: Vec<Array>,
    pub ispace_rank: usize,
    pub op: Option<Rc<AccOp>>,
}

#[derive(Clone, Debug)]
pub enum Val {
    Scalar(Scalar),
    Array(Array),
    Acc(Acc),
}

/// Counts full array copies, so that tests can prove that updates of
/// unshared arrays happen in place.
#[derive(Default, Debug)]
pub struct CopyCounter(pub Cell<u64>);

impl CopyCounter {
    pub fn bump(&self) {
        self.0.set(self.0.get() + 1)
    }
}

impl Array {
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Array {
        Array {
            shape,
            data: Rc::new(data),
        }
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements in one row.
    pub fn row_len(&self) -> usize {
        self.shape[1..].iter().product()
    }

    /// Mutable access to the elements, copying them first if shared.
    pub fn data_mut(&mut self, copies: &CopyCounter) -> &mut ArrayData {
        if Rc::strong_count(&self.data) > 1 {
            copies.bump();
        }
        Rc::make_mut(&mut self.data)
    }

    /// Row `i` (a scalar for a one-dimensional array); `i` must be in bounds.
    pub fn row(&self, i: usize) -> Val {
        let r = self.row_len();
        if self.rank() == 1 {
            Val::Scalar(self.data.get(i).unwrap_or(Scalar::Bool(false)))
        } else {
            Val::Array(Array::new(
                self.shape[1..].to_vec(),
                range(&self.data, i * r, r),
            ))
        }
    }

    pub fn to_value(&self) -> ArrayValue {
        ArrayValue {
            shape: self.shape.clone(),
            data: (*self.data).clone(),
        }
    }
}

/// Elements `start..start+len` as new storage.
pub fn range(d: &ArrayData, start: usize, len: usize) -> ArrayData {
    map_data!(d, v => v[start..start + len].to_vec())
}

/// The elements at the given flat positions.
pub fn gather(d: &ArrayData, idx: &[usize]) -> ArrayData {
    map_data!(d, v => idx.iter().map(|&i| v[i]).collect())
}

/// Writes `src` into `dst` starting at `at`.
pub fn write_range(dst: &mut ArrayData, at: usize, src: &ArrayData) -> Result<(), Msg> {
    zip_data!(dst, src, d, s => {
        d[at..at + s.len()].copy_from_slice(s);
        Ok(())
    }, Err("element type mismatch".into()))
}

/// Appends `src` to `dst` (an error if memory runs out).
pub fn extend(dst: &mut ArrayData, src: &ArrayData) -> Result<(), Msg> {
    zip_data!(dst, src, d, s => {
        reserve(d, s.len())?;
        d.extend_from_slice(s);
        Ok(())
    }, Err("element type mismatch".into()))
}

/// Makes room for `extra` more elements, or says that memory ran out
/// (instead of aborting the process, as a failed allocation does).
fn reserve<T>(v: &mut Vec<T>, extra: usize) -> Result<(), Msg> {
    v.try_reserve(extra)
        .map_err(|_| out_of_memory(v.len().saturating_add(extra), std::mem::size_of::<T>()))
}

/// The message for an array of `n` elements of `size` bytes that cannot
/// be allocated.
pub fn out_of_memory(n: usize, size: usize) -> Msg {
    match n.checked_mul(size) {
        Some(bytes) => {
            format!("Out of memory: cannot allocate an array of {n} elements ({bytes} bytes)")
        }
        None => format!("Out of memory: cannot allocate an array of {n} elements"),
    }
}

/// Writes a scalar at flat position `i`.
pub fn set(d: &mut ArrayData, i: usize, s: Scalar) -> Result<(), Msg> {
    match (d, s) {
        (ArrayData::I8(v), Scalar::I8(x)) => v[i] = x,
        (ArrayData::I16(v), Scalar::I16(x)) => v[i] = x,
        (ArrayData::I32(v), Scalar::I32(x)) => v[i] = x,
        (ArrayData::I64(v), Scalar::I64(x)) => v[i] = x,
        (ArrayData::U8(v), Scalar::U8(x)) => v[i] = x,
        (ArrayData::U16(v), Scalar::U16(x)) => v[i] = x,
        (ArrayData::U32(v), Scalar::U32(x)) => v[i] = x,
        (ArrayData::U64(v), Scalar::U64(x)) => v[i] = x,
        (ArrayData::F16(v), Scalar::F16(x)) => v[i] = x,
        (ArrayData::F32(v), Scalar::F32(x)) => v[i] = x,
        (ArrayData::F64(v), Scalar::F64(x)) => v[i] = x,
        (ArrayData::Bool(v), Scalar::Bool(x)) => v[i] = x,
        (d, s) => {
            return Err(format!(
                "cannot store {} in an array of {}",
                s.prim_type(),
                d.elem_type()
            ))
        }
    }
    Ok(())
}

/// `n` copies of `s`; an error rather than an abort if there is not
/// enough memory.
pub fn filled(s: Scalar, n: usize) -> Result<ArrayData, Msg> {
    fn fill<T: Copy>(x: T, n: usize) -> Result<Vec<T>, Msg> {
        let mut v = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| out_of_memory(n, std::mem::size_of::<T>()))?;
        v.resize(n, x);
        Ok(v)
    }
    Ok(match s {
        Scalar::I8(x) => ArrayData::I8(fill(x, n)?),
        Scalar::I16(x) => ArrayData::I16(fill(x, n)?),
        Scalar::I32(x) => ArrayData::I32(fill(x, n)?),
        Scalar::I64(x) => ArrayData::I64(fill(x, n)?),
        Scalar::U8(x) => ArrayData::U8(fill(x, n)?),
        Scalar::U16(x) => ArrayData::U16(fill(x, n)?),
        Scalar::U32(x) => ArrayData::U32(fill(x, n)?),
        Scalar::U64(x) => ArrayData::U64(fill(x, n)?),
        Scalar::F16(x) => ArrayData::F16(fill(x, n)?),
        Scalar::F32(x) => ArrayData::F32(fill(x, n)?),
        Scalar::F64(x) => ArrayData::F64(fill(x, n)?),
        Scalar::Bool(x) => ArrayData::Bool(fill(x, n)?),
    })
}

/// The number of elements of an array of shape `dims`, or an error if
/// that number does not fit in memory's address range.
pub fn elem_count(dims: &[usize]) -> Result<usize, Msg> {
    dims.iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| {
            format!(
                "Out of memory: an array of shape {} has too many elements",
                crate::error::shape_str(dims)
            )
        })
}

impl Val {
    pub fn from_value(v: Value) -> Val {
        match v {
            Value::Scalar(s) => Val::Scalar(s),
            Value::Array(a) => Val::Array(Array::new(a.shape, a.data)),
        }
    }

    /// The external value (`None` for accumulators).
    pub fn to_value(&self) -> Option<Value> {
        match self {
            Val::Scalar(s) => Some(Value::Scalar(*s)),
            Val::Array(a) => Some(Value::Array(a.to_value())),
            Val::Acc(_) => None,
        }
    }

    /// The external value, moving the elements out of an unshared array
    /// instead of copying them (`None` for accumulators).
    pub fn into_value(self) -> Option<Value> {
        match self {
            Val::Scalar(s) => Some(Value::Scalar(s)),
            Val::Array(a) => Some(Value::Array(ArrayValue {
                shape: a.shape,
                data: Rc::try_unwrap(a.data).unwrap_or_else(|shared| (*shared).clone()),
            })),
            Val::Acc(_) => None,
        }
    }

    /// Shape (empty for scalars and accumulators).
    pub fn shape(&self) -> &[usize] {
        match self {
            Val::Array(a) => &a.shape,
            _ => &[],
        }
    }

    /// Element type (`None` for accumulators).
    pub fn elem_type(&self) -> Option<PrimType> {
        match self {
            Val::Scalar(s) => Some(s.prim_type()),
            Val::Array(a) => Some(a.elem_type()),
            Val::Acc(_) => None,
        }
    }

    /// The shape and flat elements of a scalar or array.
    pub fn flat(&self) -> Option<(Vec<usize>, ArrayData)> {
        match self {
            Val::Scalar(s) => {
                let mut d = ArrayData::empty(s.prim_type());
                d.push(*s);
                Some((vec![], d))
            }
            Val::Array(a) => Some((a.shape.clone(), (*a.data).clone())),
            Val::Acc(_) => None,
        }
    }
}
