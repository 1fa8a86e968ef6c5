//! Array operations on run-time values: indexing, slicing, in-place
//! update, reshaping, and the array constructors. Slices, reversals and
//! rearrangements are views of their operand's storage; reshapes are too
//! when the elements are contiguous.

use crate::error::{shape_str, Msg};
use crate::prim;
use crate::value::{
    elem_count, extend, filled, out_of_memory, write_view, Array, CopyCounter, Val,
};
use parad_base::{IntType, PrimType};
use parad_values::{ArrayData, Scalar};

/// A dimension index with its operands evaluated.
#[derive(Clone, Copy, Debug)]
pub enum Ix {
    Fix(i64),
    Slice { start: i64, len: i64, stride: i64 },
}

fn ix_str(slice: &[Ix]) -> String {
    let parts: Vec<String> = slice
        .iter()
        .map(|ix| match *ix {
            Ix::Fix(i) => i.to_string(),
            Ix::Slice { start, len, stride } => {
                let end = start.wrapping_add(len.wrapping_mul(stride));
                if stride == 1 {
                    format!("{start}:{end}")
                } else {
                    format!("{start}:{end}:{stride}")
                }
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn in_bounds(ix: Ix, d: usize) -> bool {
    let d = d as i64;
    match ix {
        Ix::Fix(i) => 0 <= i && i < d,
        Ix::Slice { start, len, stride } => {
            if len < 0 {
                return false;
            }
            if len == 0 {
                // An empty slice reads nothing (e.g. `xs[::-1]` of `[]`).
                return true;
            }
            let last = start as i128 + (len as i128 - 1) * stride as i128;
            0 <= start && start < d && 0 <= last && last < d as i128
        }
    }
}

/// The view `arr[slice]`: its shape, and the storage offset and strides
/// of its elements.
fn plan(arr: &Array, slice: &[Ix]) -> Result<(Vec<usize>, usize, Vec<isize>), Msg> {
    let shape = &arr.shape;
    if slice.len() > shape.len() || !slice.iter().zip(shape).all(|(&ix, &d)| in_bounds(ix, d)) {
        return Err(format!(
            "Index {} out of bounds for array of shape {}",
            ix_str(slice),
            shape_str(shape)
        ));
    }
    let k = slice.len();
    let (offset, strides) = arr.layout();
    let mut offset = offset as isize;
    let mut out_shape = vec![];
    let mut out_strides = vec![];
    for (j, ix) in slice.iter().enumerate() {
        match *ix {
            Ix::Fix(i) => offset += i as isize * strides[j],
            Ix::Slice { start, len, stride } => {
                out_shape.push(len as usize);
                out_strides.push(stride as isize * strides[j]);
                // An empty slice may start out of bounds; it reads nothing.
                if len > 0 {
                    offset += start as isize * strides[j];
                }
            }
        }
    }
    out_shape.extend_from_slice(&shape[k..]);
    out_strides.extend_from_slice(&strides[k..]);
    Ok((out_shape, offset.max(0) as usize, out_strides))
}

/// `arr[slice]`: a scalar, or a view sharing `arr`'s storage.
pub fn index(arr: &Array, slice: &[Ix]) -> Result<Val, Msg> {
    let (shape, offset, strides) = plan(arr, slice)?;
    if shape.is_empty() {
        let s = arr.storage_get(offset).ok_or("index out of range")?;
        return Ok(Val::Scalar(s));
    }
    Ok(Val::Array(arr.view_of(shape, offset, strides)))
}

/// `arr with [slice] = v`, in place when `arr` is not shared.
pub fn update(mut arr: Array, slice: &[Ix], v: Val, copies: &CopyCounter) -> Result<Array, Msg> {
    arr.own(copies)?;
    let (shape, offset, strides) = plan(&arr, slice)?;
    // The value's elements are taken out first: it may be a view of
    // `arr` itself, which would otherwise keep `arr` shared.
    let (vshape, vdata) = v.into_flat()?;
    if vshape != shape {
        return Err(format!(
            "Cannot write value of shape {} to slice of shape {}",
            shape_str(&vshape),
            shape_str(&shape)
        ));
    }
    write_view(arr.data_mut(copies)?, &shape, offset, &strides, &vdata)?;
    Ok(arr)
}

fn dims_str(dims: &[i64]) -> String {
    dims.iter().map(|d| format!("[{d}]")).collect()
}

/// Checks that `dims` are non-negative and multiply to `n` elements.
fn fits(dims: &[i64], n: usize) -> Option<Vec<usize>> {
    let mut total: usize = 1;
    for &d in dims {
        total = total.checked_mul(usize::try_from(d).ok()?)?;
    }
    (total == n).then(|| dims.iter().map(|&d| d as usize).collect())
}

pub fn reshape(arr: &Array, dims: &[i64], what: &str) -> Result<Array, Msg> {
    match fits(dims, arr.len()) {
        Some(shape) => arr.reshaped(shape),
        None => Err(format!(
            "Cannot {what} array of shape {} to shape {}",
            shape_str(&arr.shape),
            dims_str(dims)
        )),
    }
}

pub fn flatten(arr: &Array) -> Result<Array, Msg> {
    if arr.rank() < 2 {
        return Err(format!(
            "Cannot flatten array of shape {}",
            shape_str(&arr.shape)
        ));
    }
    let mut shape = vec![arr.shape[0] * arr.shape[1]];
    shape.extend_from_slice(&arr.shape[2..]);
    arr.reshaped(shape)
}

pub fn unflatten(arr: &Array, n: i64, m: i64) -> Result<Array, Msg> {
    let mut dims = vec![n, m];
    dims.extend(arr.shape[1..].iter().map(|&d| d as i64));
    reshape(arr, &dims, "unflatten")
}

/// Result dimension `i` is dimension `perm[i]` of `arr`: a view.
pub fn rearrange(arr: &Array, perm: &[usize]) -> Result<Array, Msg> {
    let r = arr.rank();
    let mut seen = vec![false; r];
    if perm.len() != r
        || !perm
            .iter()
            .all(|&p| p < r && !std::mem::replace(&mut seen[p], true))
    {
        return Err(format!("permutation {perm:?} for array of rank {r}"));
    }
    let (offset, strides) = arr.layout();
    let shape = perm.iter().map(|&p| arr.shape[p]).collect();
    let strides = perm.iter().map(|&p| strides[p]).collect();
    Ok(arr.view_of(shape, offset, strides))
}

pub fn size_of(n: i64, what: &str) -> Result<usize, Msg> {
    usize::try_from(n).map_err(|_| format!("Cannot {what} with negative size {n}"))
}

pub fn iota(n: i64, start: Scalar, step: Scalar, it: IntType) -> Result<Array, Msg> {
    let (a, s) = (
        prim::as_i64(start).unwrap_or(0) as i128,
        prim::as_i64(step).unwrap_or(0) as i128,
    );
    let len = match (a, s) {
        // `iota n` is the range `0..1..<n`, as Futhark reports it.
        (0, 1) if n < 0 => return Err(format!("Range 0..1..<{n} is invalid.")),
        _ => size_of(n, "iota")?,
    };
    let t = PrimType::Int(it);
    let mut d = ArrayData::try_with_capacity(t, len).map_err(|()| out_of_memory(len, t.size()))?;
    for i in 0..len as i128 {
        d.push(prim::mk_int(it, a + i * s));
    }
    Ok(Array::new(vec![len], d))
}

pub fn replicate(n: i64, v: &Val) -> Result<Array, Msg> {
    let len = size_of(n, "replicate")?;
    let (vshape, vdata) = v.flat()?;
    let mut shape = vec![len];
    shape.extend(vshape);
    let total = elem_count(&shape)?;
    let data = if let (true, Some(s)) = (shape.len() == 1, vdata.get(0)) {
        filled(s, len)?
    } else {
        let t = vdata.elem_type();
        let mut d =
            ArrayData::try_with_capacity(t, total).map_err(|()| out_of_memory(total, t.size()))?;
        // Nothing to copy when the replicated value is empty (the result
        // may still have a huge outer dimension).
        if !vdata.is_empty() {
            for _ in 0..len {
                extend(&mut d, &vdata)?;
            }
        }
        d
    };
    Ok(Array::new(shape, data))
}

/// An array of zeros (scratch space is never read before written).
pub fn scratch(elem: PrimType, dims: &[i64]) -> Result<Array, Msg> {
    let shape: Vec<usize> = dims
        .iter()
        .map(|&d| size_of(d, "create scratch array"))
        .collect::<Result<_, _>>()?;
    let n = elem_count(&shape)?;
    Ok(Array::new(shape, filled(prim::zero(elem), n)?))
}

pub fn concat(arrs: &[Array]) -> Result<Array, Msg> {
    let first = arrs.first().ok_or("concat of no arrays")?;
    let mut outer = 0;
    for a in arrs {
        if a.shape[1..] != first.shape[1..] {
            return Err(format!(
                "Cannot concatenate arrays of shapes {} and {}",
                shape_str(&first.shape),
                shape_str(&a.shape)
            ));
        }
        outer += a.shape[0];
    }
    let mut shape = vec![outer];
    shape.extend_from_slice(&first.shape[1..]);
    let total = elem_count(&shape)?;
    let t = first.elem_type();
    let mut d =
        ArrayData::try_with_capacity(t, total).map_err(|()| out_of_memory(total, t.size()))?;
    for a in arrs {
        extend(&mut d, &*a.data()?)?;
    }
    Ok(Array::new(shape, d))
}

pub fn copy(arr: &Array, copies: &CopyCounter) -> Result<Array, Msg> {
    copies.bump();
    Ok(Array::new(arr.shape.clone(), arr.to_data()?))
}

/// Rows `start..start+len` of `arr`, as a view.
fn rows(arr: &Array, start: usize, len: usize) -> Array {
    let (offset, strides) = arr.layout();
    let mut shape = arr.shape.clone();
    shape[0] = len;
    let offset = (offset as isize + start as isize * strides[0]) as usize;
    arr.view_of(shape, offset, strides)
}

/// The rows in reverse order: a view.
pub fn reverse(arr: &Array) -> Array {
    let n = arr.shape[0];
    if n == 0 {
        return arr.clone();
    }
    let (offset, mut strides) = arr.layout();
    let offset = (offset as isize + (n as isize - 1) * strides[0]) as usize;
    strides[0] = -strides[0];
    arr.view_of(arr.shape.clone(), offset, strides)
}

/// Rows `k..n` followed by rows `0..k` (modulo `n`).
pub fn rotate(arr: &Array, k: i64) -> Result<Array, Msg> {
    let n = arr.shape[0];
    if n == 0 {
        return Ok(arr.clone());
    }
    let k = k.rem_euclid(n as i64) as usize;
    if k == 0 {
        return Ok(arr.clone());
    }
    concat(&[rows(arr, k, n - k), rows(arr, 0, k)])
}
