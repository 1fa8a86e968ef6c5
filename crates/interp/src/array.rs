//! Array operations on run-time values: indexing, slicing, in-place
//! update, reshaping, and the array constructors.

use crate::error::{shape_str, Msg};
use crate::prim;
use crate::value::{
    elem_count, extend, filled, gather, out_of_memory, range, write_range, Array, CopyCounter, Val,
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

/// The result shape of `arr[slice]` and the flat offsets of its blocks of
/// `inner` contiguous elements (the dimensions not indexed).
fn plan(shape: &[usize], slice: &[Ix]) -> Result<(Vec<usize>, Vec<usize>, usize), Msg> {
    if slice.len() > shape.len() || !slice.iter().zip(shape).all(|(&ix, &d)| in_bounds(ix, d)) {
        return Err(format!(
            "Index {} out of bounds for array of shape {}",
            ix_str(slice),
            shape_str(shape)
        ));
    }
    let k = slice.len();
    let inner: usize = shape[k..].iter().product();
    // Strides (in elements) of the indexed dimensions.
    let mut strides = vec![inner; k];
    for i in (0..k.saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    let mut out_shape = vec![];
    let mut offsets = vec![0usize];
    for (j, ix) in slice.iter().enumerate() {
        match *ix {
            Ix::Fix(i) => offsets
                .iter_mut()
                .for_each(|o| *o += i as usize * strides[j]),
            Ix::Slice { start, len, stride } => {
                out_shape.push(len as usize);
                let mut next = Vec::with_capacity(offsets.len() * len as usize);
                for &o in &offsets {
                    for t in 0..len {
                        let pos = start + t * stride;
                        next.push(o + pos as usize * strides[j]);
                    }
                }
                offsets = next;
            }
        }
    }
    out_shape.extend_from_slice(&shape[k..]);
    Ok((out_shape, offsets, inner))
}

/// `arr[slice]`.
pub fn index(arr: &Array, slice: &[Ix]) -> Result<Val, Msg> {
    let (shape, offsets, inner) = plan(&arr.shape, slice)?;
    if shape.is_empty() {
        let s = arr.data.get(offsets[0]).ok_or("index out of range")?;
        return Ok(Val::Scalar(s));
    }
    let data = if inner == 1 {
        gather(&arr.data, &offsets)
    } else {
        let mut d = ArrayData::empty(arr.elem_type());
        for &o in &offsets {
            extend(&mut d, &range(&arr.data, o, inner))?;
        }
        d
    };
    Ok(Val::Array(Array::new(shape, data)))
}

/// `arr with [slice] = v`, in place when `arr` is not shared.
pub fn update(mut arr: Array, slice: &[Ix], v: &Val, copies: &CopyCounter) -> Result<Array, Msg> {
    let (shape, offsets, inner) = plan(&arr.shape, slice)?;
    let (vshape, vdata) = v.flat().ok_or("cannot store an accumulator in an array")?;
    if vshape != shape {
        return Err(format!(
            "Cannot write value of shape {} to slice of shape {}",
            shape_str(&vshape),
            shape_str(&shape)
        ));
    }
    let d = arr.data_mut(copies);
    for (b, &o) in offsets.iter().enumerate() {
        if inner == 1 {
            let s = vdata.get(b).ok_or("update value too short")?;
            crate::value::set(d, o, s)?;
        } else {
            write_range(d, o, &range(&vdata, b * inner, inner))?;
        }
    }
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
    let n: usize = arr.shape.iter().product();
    match fits(dims, n) {
        Some(shape) => Ok(Array {
            shape,
            data: arr.data.clone(),
        }),
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
    Ok(Array {
        shape,
        data: arr.data.clone(),
    })
}

pub fn unflatten(arr: &Array, n: i64, m: i64) -> Result<Array, Msg> {
    let mut dims = vec![n, m];
    dims.extend(arr.shape[1..].iter().map(|&d| d as i64));
    reshape(arr, &dims, "unflatten")
}

/// Result dimension `i` is dimension `perm[i]` of `arr`.
pub fn rearrange(arr: &Array, perm: &[usize]) -> Result<Array, Msg> {
    let r = arr.rank();
    if perm.len() != r {
        return Err(format!("permutation {perm:?} for array of rank {r}"));
    }
    let mut in_strides = vec![1usize; r];
    for i in (0..r.saturating_sub(1)).rev() {
        in_strides[i] = in_strides[i + 1] * arr.shape[i + 1];
    }
    let shape: Vec<usize> = perm.iter().map(|&p| arr.shape[p]).collect();
    let n: usize = shape.iter().product();
    let mut offsets = Vec::with_capacity(n);
    let mut idx = vec![0usize; r];
    for _ in 0..n {
        offsets.push(idx.iter().zip(perm).map(|(&i, &p)| i * in_strides[p]).sum());
        // Advance the output index in row-major order.
        for d in (0..r).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    Ok(Array::new(shape, gather(&arr.data, &offsets)))
}

pub fn size_of(n: i64, what: &str) -> Result<usize, Msg> {
    usize::try_from(n).map_err(|_| format!("Cannot {what} with negative size {n}"))
}

pub fn iota(n: i64, start: Scalar, step: Scalar, it: IntType) -> Result<Array, Msg> {
    let len = size_of(n, "iota")?;
    let (a, s) = (
        prim::as_i64(start).unwrap_or(0) as i128,
        prim::as_i64(step).unwrap_or(0) as i128,
    );
    let t = PrimType::Int(it);
    let mut d = ArrayData::try_with_capacity(t, len).map_err(|()| out_of_memory(len, t.size()))?;
    for i in 0..len as i128 {
        d.push(prim::mk_int(it, a + i * s));
    }
    Ok(Array::new(vec![len], d))
}

pub fn replicate(n: i64, v: &Val) -> Result<Array, Msg> {
    let len = size_of(n, "replicate")?;
    let (vshape, vdata) = v.flat().ok_or("cannot replicate an accumulator")?;
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
    let mut d = ArrayData::empty(first.elem_type());
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
        extend(&mut d, &a.data)?;
    }
    let mut shape = vec![outer];
    shape.extend_from_slice(&first.shape[1..]);
    Ok(Array::new(shape, d))
}

pub fn copy(arr: &Array, copies: &CopyCounter) -> Array {
    copies.bump();
    Array::new(arr.shape.clone(), (*arr.data).clone())
}

fn permute_rows(arr: &Array, rows: impl Iterator<Item = usize>) -> Array {
    let r = arr.row_len();
    let offsets: Vec<usize> = rows.flat_map(|i| i * r..(i + 1) * r).collect();
    Array::new(arr.shape.clone(), gather(&arr.data, &offsets))
}

pub fn reverse(arr: &Array) -> Array {
    let n = arr.shape[0];
    permute_rows(arr, (0..n).rev())
}

pub fn rotate(arr: &Array, k: i64) -> Array {
    let n = arr.shape[0];
    if n == 0 {
        return arr.clone();
    }
    let k = k.rem_euclid(n as i64) as usize;
    permute_rows(arr, (0..n).map(|i| (i + k) % n))
}
