//! Indexing and the operations that only move elements around: each
//! adjoint is the inverse movement of the result's adjoint.

use super::adjenv::Rev;
use super::build::sum_rows;
use parad_core::*;

pub fn rev(r: &mut Rev, b: &mut Builder, s: &Stm) {
    let y = s.pat[0].name;
    match &s.exp {
        Exp::Basic(BasicOp::Index { arr, slice }) if r.wants(b, *arr) => {
            let yb = r.adj_val(b, y);
            let slice: Vec<DimIndex> = slice
                .iter()
                .map(|d| match *d {
                    DimIndex::Fix(i) => DimIndex::Fix(r.po(i)),
                    DimIndex::Slice { start, len, stride } => DimIndex::Slice {
                        start: r.po(start),
                        len: r.po(len),
                        stride: r.po(stride),
                    },
                })
                .collect();
            r.add_at(b, *arr, &slice, yb);
        }
        Exp::Basic(BasicOp::Copy { arr }) if r.wants(b, *arr) => {
            let yb = r.adj_val(b, y);
            r.add(b, *arr, yb);
        }
        Exp::Basic(BasicOp::Reverse { arr }) if r.wants(b, *arr) => {
            let yb = adj_var(r, b, y);
            let c = b.reverse(yb);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Rotate { arr, amount }) if r.wants(b, *arr) => {
            // rotate(k, x)[i] = x[i + k], so x̄ = rotate(-k, ȳ).
            let yb = adj_var(r, b, y);
            let k = b.neg(r.po(*amount));
            let c = b.rotate(k, yb);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Reshape { arr, .. }) if r.wants(b, *arr) => {
            let yb = adj_var(r, b, y);
            let xp = r.p(*arr);
            let rank = b.type_of(xp).rank();
            let shape = (0..rank).map(|k| b.dim(xp, k)).collect();
            let c = b.reshape(yb, shape);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Flatten { arr }) if r.wants(b, *arr) => {
            let yb = adj_var(r, b, y);
            let xp = r.p(*arr);
            let (n, m) = (b.dim(xp, 0), b.dim(xp, 1));
            let c = b.unflatten(yb, n, m);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Unflatten { arr, .. }) if r.wants(b, *arr) => {
            let yb = adj_var(r, b, y);
            let c = b.flatten(yb);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Rearrange { arr, perm }) if r.wants(b, *arr) => {
            let yb = adj_var(r, b, y);
            let mut inv = vec![0; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            let c = b.rearrange(yb, inv);
            r.add(b, *arr, c.into());
        }
        Exp::Basic(BasicOp::Replicate { value, .. }) if r.wants_op(b, *value) => {
            let yb = adj_var(r, b, y);
            let c = sum_rows(b, yb);
            r.add_op(b, *value, c);
        }
        Exp::Basic(BasicOp::Concat { arrs }) => {
            let yb = adj_var(r, b, y);
            let mut off = Operand::i64(0);
            for &a in arrs {
                let len = b.dim(r.p(a), 0);
                if r.wants(b, a) {
                    let slice = vec![DimIndex::Slice {
                        start: off,
                        len,
                        stride: Operand::i64(1),
                    }];
                    let piece = b.slice(yb, slice);
                    r.add(b, a, piece.into());
                }
                off = b.add(off, len).into();
            }
        }
        _ => {}
    }
}

/// The adjoint of array `y` as a variable.
pub fn adj_var(r: &mut Rev, b: &mut Builder, y: VName) -> VName {
    r.adj_val(b, y).var().expect("rev: array adjoint")
}
