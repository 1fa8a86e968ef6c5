//! Run-time values: scalars, arrays as shared reference-counted buffers
//! (so that copying a value is O(1) and an update of an unshared array is
//! in place) seen through an affine index function (so that a slice, a
//! reversal or a transposition is a view costing O(rank) memory), and
//! accumulators.

use crate::error::Msg;
use parad_base::PrimType;
use parad_core::AccOp;
use parad_values::{ArrayData, ArrayValue, Scalar, Value};
use std::borrow::Cow;
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

/// A regular array: `shape.iter().product()` elements, either stored in
/// row-major order from the start of `data` (the usual case), or a view
/// into `data` (a slice, a reversal, a transposition) described by an
/// affine index function, so that a view costs O(rank) memory however
/// many elements it has.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<usize>,
    data: Rc<ArrayData>,
    /// `None`: row-major from position 0, covering all of `data`.
    view: Option<View>,
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

/// Element `[i_0, ..., i_{r-1}]` of a view is at position
/// `offset + sum(i_k * strides[k])` of its storage.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub offset: usize,
    pub strides: Vec<isize>,
}

/// Row-major strides of an array of shape `shape`.
pub fn row_major(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![1isize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1] as isize;
    }
    strides
}

/// Calls `f` with the storage position of every element of the view
/// `offset`/`strides` of shape `shape`, in row-major order; runs of the
/// innermost dimension are given as `(start, len, stride)`.
fn for_each_run(
    shape: &[usize],
    offset: usize,
    strides: &[isize],
    mut f: impl FnMut(usize, usize, isize),
) {
    let r = shape.len();
    if shape.contains(&0) {
        return;
    }
    if r == 0 {
        f(offset, 1, 1);
        return;
    }
    let (len, stride) = (shape[r - 1], strides[r - 1]);
    let mut idx = vec![0usize; r - 1];
    let mut base = offset as isize;
    loop {
        f(base as usize, len, stride);
        // Advance the outer index in row-major order.
        let mut d = r - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            base += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            base -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// The elements of a view as new row-major storage (an error rather than
/// an abort if there is not enough memory).
fn gather_view(d: &ArrayData, shape: &[usize], view: &View) -> Result<ArrayData, Msg> {
    let n = elem_count(shape)?;
    fn go<T: Copy>(v: &[T], n: usize, shape: &[usize], view: &View) -> Result<Vec<T>, Msg> {
        let mut out = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| out_of_memory(n, std::mem::size_of::<T>()))?;
        for_each_run(shape, view.offset, &view.strides, |start, len, stride| {
            if stride == 1 {
                out.extend_from_slice(&v[start..start + len]);
            } else {
                let mut p = start as isize;
                for _ in 0..len {
                    out.push(v[p as usize]);
                    p += stride;
                }
            }
        });
        Ok(out)
    }
    Ok(map_data!(d, v => go(v, n, shape, view)?))
}

/// Whether a view with these strides is contiguous and in row-major order.
fn is_row_major(shape: &[usize], strides: &[isize]) -> bool {
    // Dimensions of extent 1 may have any stride.
    let want = row_major(shape);
    shape
        .iter()
        .zip(strides.iter().zip(&want))
        .all(|(&d, (&s, &w))| d <= 1 || s == w)
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
    /// An array stored in row-major order in `data`.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Array {
        Array {
            shape,
            data: Rc::new(data),
            view: None,
        }
    }

    /// A view of this array's storage: shape `shape`, element
    /// `[i_0, ...]` at `offset + sum(i_k * strides[k])`. The caller
    /// guarantees that every element is in bounds.
    pub fn view_of(&self, shape: Vec<usize>, offset: usize, strides: Vec<isize>) -> Array {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Array::new(shape, ArrayData::empty(self.elem_type()));
        }
        let plain = offset == 0 && n == self.data.len() && is_row_major(&shape, &strides);
        Array {
            shape,
            data: self.data.clone(),
            view: (!plain).then_some(View { offset, strides }),
        }
    }

    /// The offset and strides of this array in its storage.
    pub fn layout(&self) -> (usize, Vec<isize>) {
        match &self.view {
            Some(v) => (v.offset, v.strides.clone()),
            None => (0, row_major(&self.shape)),
        }
    }

    /// Whether the elements lie in row-major order from the start of a
    /// storage of their own (so that flat positions are storage positions).
    pub fn is_plain(&self) -> bool {
        self.view.is_none()
    }

    /// The storage offset of the elements when they are contiguous and in
    /// row-major order (a plain array, or a contiguous slice of one).
    pub fn contiguous_offset(&self) -> Option<usize> {
        match &self.view {
            None => Some(0),
            Some(v) => is_row_major(&self.shape, &v.strides).then_some(v.offset),
        }
    }

    /// The same elements with another shape of the same element count,
    /// sharing the storage when they are contiguous (copying otherwise).
    pub fn reshaped(&self, shape: Vec<usize>) -> Result<Array, Msg> {
        match self.contiguous_offset() {
            Some(off) => {
                let strides = row_major(&shape);
                Ok(self.view_of(shape, off, strides))
            }
            None => Ok(Array::new(shape, self.to_data()?)),
        }
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of elements in one row.
    pub fn row_len(&self) -> usize {
        self.shape[1..].iter().product()
    }

    /// The storage position of the element at row-major position `i`.
    fn pos(&self, i: usize) -> usize {
        match &self.view {
            None => i,
            Some(v) if v.strides.len() == 1 => {
                (v.offset as isize + i as isize * v.strides[0]) as usize
            }
            Some(v) => {
                let mut rest = i;
                let mut p = v.offset as isize;
                for (&d, &s) in self.shape.iter().zip(&v.strides).rev() {
                    p += (rest % d) as isize * s;
                    rest /= d;
                }
                p as usize
            }
        }
    }

    /// The element at storage position `p` (see [`Array::layout`]).
    pub(crate) fn storage_get(&self, p: usize) -> Option<Scalar> {
        self.data.get(p)
    }

    /// The element at row-major position `i`.
    pub fn get(&self, i: usize) -> Option<Scalar> {
        if i >= self.len() {
            return None;
        }
        self.data.get(self.pos(i))
    }

    /// The elements in row-major order: the storage itself for a plain
    /// array, a copy otherwise.
    pub fn data(&self) -> Result<Cow<'_, ArrayData>, Msg> {
        match &self.view {
            None => Ok(Cow::Borrowed(&self.data)),
            Some(v) => Ok(Cow::Owned(gather_view(&self.data, &self.shape, v)?)),
        }
    }

    /// The elements in row-major order as new storage.
    pub fn to_data(&self) -> Result<ArrayData, Msg> {
        Ok(self.data()?.into_owned())
    }

    /// The elements in row-major order, moved out of unshared storage.
    pub fn into_data(self) -> Result<ArrayData, Msg> {
        match &self.view {
            None => Ok(Rc::try_unwrap(self.data).unwrap_or_else(|shared| (*shared).clone())),
            Some(v) => gather_view(&self.data, &self.shape, v),
        }
    }

    /// Makes this array plain (row-major storage of its own), copying the
    /// elements of a view.
    pub fn own(&mut self, copies: &CopyCounter) -> Result<(), Msg> {
        if let Some(v) = &self.view {
            copies.bump();
            let d = gather_view(&self.data, &self.shape, v)?;
            self.data = Rc::new(d);
            self.view = None;
        }
        Ok(())
    }

    /// Mutable access to the elements in row-major order, copying them
    /// first if shared or a view.
    pub fn data_mut(&mut self, copies: &CopyCounter) -> Result<&mut ArrayData, Msg> {
        if self.view.is_some() {
            self.own(copies)?;
        } else if Rc::strong_count(&self.data) > 1 {
            copies.bump();
        }
        Ok(Rc::make_mut(&mut self.data))
    }

    /// Row `i` (a scalar for a one-dimensional array), as a view;
    /// `i` must be in bounds.
    pub fn row(&self, i: usize) -> Val {
        if self.rank() == 1 {
            Val::Scalar(self.get(i).unwrap_or(Scalar::Bool(false)))
        } else {
            let (off, strides) = self.layout();
            let off = (off as isize + i as isize * strides[0]) as usize;
            Val::Array(self.view_of(self.shape[1..].to_vec(), off, strides[1..].to_vec()))
        }
    }

    pub fn to_value(&self) -> Result<ArrayValue, Msg> {
        Ok(ArrayValue {
            shape: self.shape.clone(),
            data: self.to_data()?,
        })
    }
}

/// Writes the row-major elements `src` to the view `offset`/`strides`
/// of shape `shape` of `dst`.
pub fn write_view(
    dst: &mut ArrayData,
    shape: &[usize],
    offset: usize,
    strides: &[isize],
    src: &ArrayData,
) -> Result<(), Msg> {
    zip_data!(dst, src, d, s => {
        let mut k = 0;
        for_each_run(shape, offset, strides, |start, len, stride| {
            if stride == 1 {
                d[start..start + len].copy_from_slice(&s[k..k + len]);
            } else {
                let mut p = start as isize;
                for x in &s[k..k + len] {
                    d[p as usize] = *x;
                    p += stride;
                }
            }
            k += len;
        });
        Ok(())
    }, Err("element type mismatch".into()))
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

    /// The external value, moving the elements out of an unshared array
    /// instead of copying them (an error for accumulators).
    pub fn into_value(self) -> Result<Value, Msg> {
        match self {
            Val::Scalar(s) => Ok(Value::Scalar(s)),
            Val::Array(a) => Ok(Value::Array(ArrayValue {
                shape: a.shape.clone(),
                data: a.into_data()?,
            })),
            Val::Acc(_) => Err("entry point returned an accumulator".into()),
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

    /// The shape and row-major elements of a scalar or array, moved out
    /// of an unshared array.
    pub fn into_flat(self) -> Result<(Vec<usize>, ArrayData), Msg> {
        match self {
            Val::Array(a) => Ok((a.shape.clone(), a.into_data()?)),
            v => v.flat().map(|(s, d)| (s, d.into_owned())),
        }
    }

    /// The shape and row-major elements of a scalar or array.
    pub fn flat(&self) -> Result<(Vec<usize>, Cow<'_, ArrayData>), Msg> {
        match self {
            Val::Scalar(s) => {
                let mut d = ArrayData::empty(s.prim_type());
                d.push(*s);
                Ok((vec![], Cow::Owned(d)))
            }
            Val::Array(a) => Ok((a.shape.clone(), a.data()?)),
            Val::Acc(_) => Err("internal error: accumulator in an array".into()),
        }
    }
}
