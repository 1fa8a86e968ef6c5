//! Small programs built with the builder, shared by the core and
//! interpreter tests (the interpreter includes this file by path).

#![allow(dead_code)]

use parad_base::{FloatType, IntType, PrimType};
use parad_core::types::{BOOL, F32, I64};
use parad_core::*;

pub const PF32: PrimType = PrimType::Float(FloatType::F32);
pub const PI64: PrimType = PrimType::Int(IntType::I64);

/// Every program of this module.
pub fn all() -> Vec<Program> {
    vec![
        dot(),
        row_sums(),
        affine_scan(),
        histogram(),
        scatter(),
        squares_loop(),
        collatz(),
    ]
}

pub fn arr(elem: PrimType, dims: &[Dim]) -> Type {
    Type::array(elem, dims.to_vec())
}

/// `dot xs ys = reduce (+) 0 (map2 (*) xs ys)`.
pub fn dot() -> Program {
    let mut pb = ProgramBuilder::new();
    let n = pb.param("n", I64);
    let xs = pb.param("xs", arr(PF32, &[n.name.into()]));
    let ys = pb.param("ys", arr(PF32, &[n.name.into()]));
    let (xv, yv) = (xs.name, ys.name);
    let f = pb.function("dot", vec![n, xs, ys], vec![F32], |b| {
        let prods = b.map(&[xv, yv], |b, p| vec![b.mul(p[0], p[1]).into()]);
        let sum = b.reduce_op(BinOp::Add, &prods, vec![Operand::f32(0.0)]);
        vec![sum[0].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

/// Row sums of a matrix: `map (reduce (+) 0) xss`.
pub fn row_sums() -> Program {
    let mut pb = ProgramBuilder::new();
    let xss = pb.param("xss", arr(PI64, &[Dim::Ext, Dim::Ext]));
    let x = xss.name;
    let f = pb.function("row_sums", vec![xss], vec![arr(PI64, &[Dim::Ext])], |b| {
        let r = b.map(&[x], |b, row| {
            let s = b.reduce_op(BinOp::Add, &[row[0]], vec![Operand::i64(0)]);
            vec![s[0].into()]
        });
        vec![r[0].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

/// Inclusive scan with a tuple operator that is not componentwise:
/// composition of affine maps `(a1, b1) ∘ (a2, b2) = (a2*a1, a2*b1 + b2)`.
pub fn affine_scan() -> Program {
    let mut pb = ProgramBuilder::new();
    let as_ = pb.param("as", arr(PI64, &[Dim::Ext]));
    let bs = pb.param("bs", arr(PI64, &[Dim::Ext]));
    let (a, bb) = (as_.name, bs.name);
    let t = arr(PI64, &[Dim::Ext]);
    let f = pb.function("affine_scan", vec![as_, bs], vec![t.clone(), t], |b| {
        let r = b.scan(
            &[a, bb],
            vec![Operand::i64(1), Operand::i64(0)],
            |b, x, y| {
                let a = b.mul(y[0], x[0]);
                let t = b.mul(y[0], x[1]);
                let c = b.add(t, y[1]);
                vec![a.into(), c.into()]
            },
        );
        vec![r[0].into(), r[1].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

/// `hist (+) 0 (replicate m 0) is vs` (out-of-bounds indices ignored).
pub fn histogram() -> Program {
    let mut pb = ProgramBuilder::new();
    let m = pb.param("m", I64);
    let is = pb.param("is", arr(PI64, &[Dim::Ext]));
    let vs = pb.param("vs", arr(PF32, &[Dim::Ext]));
    let (mv, iv, vv) = (m.name, is.name, vs.name);
    let f = pb.function(
        "histogram",
        vec![m, is, vs],
        vec![arr(PF32, &[mv.into()])],
        |b| {
            let dest = b.replicate(mv, Operand::f32(0.0));
            let h = b.hist(&[dest], vec![Operand::f32(0.0)], iv, &[vv], |b, x, y| {
                vec![b.add(x[0], y[0]).into()]
            });
            vec![h[0].into()]
        },
    );
    pb.entry("main", f);
    pb.finish()
}

/// `scatter (copy dest) is vs`.
pub fn scatter() -> Program {
    let mut pb = ProgramBuilder::new();
    let d = pb.param("dest", arr(PI64, &[Dim::Ext]));
    let is = pb.param("is", arr(PI64, &[Dim::Ext]));
    let vs = pb.param("vs", arr(PI64, &[Dim::Ext]));
    let (dv, iv, vv) = (d.name, is.name, vs.name);
    let f = pb.function(
        "scatter",
        vec![d, is, vs],
        vec![arr(PI64, &[Dim::Ext])],
        |b| {
            let c = b.copy(dv);
            vec![b.scatter(c, iv, vv).into()]
        },
    );
    pb.entry("main", f);
    pb.finish()
}

/// `loop xs = replicate n 0 for i < n do xs with [i] = i * i`: linear only
/// if the update happens in place.
pub fn squares_loop() -> Program {
    let mut pb = ProgramBuilder::new();
    let n = pb.param("n", I64);
    let nv = n.name;
    let f = pb.function("squares", vec![n], vec![arr(PI64, &[nv.into()])], |b| {
        let xs = b.replicate(nv, Operand::i64(0));
        let r = b.loop_for(&[xs.into()], nv, |b, i, p| {
            let sq = b.mul(i, i);
            vec![b.update(p[0], &[i.into()], sq).into()]
        });
        vec![r[0].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

/// Collatz steps of `x` with a while loop and an `if`.
pub fn collatz() -> Program {
    let mut pb = ProgramBuilder::new();
    let x = pb.param("x", I64);
    let xv = x.name;
    let f = pb.function("collatz", vec![x], vec![I64], |b| {
        let c0 = b.cmp(CmpOp::Gt, xv, Operand::i64(1));
        let r = b.loop_while(&[c0.into(), xv.into(), Operand::i64(0)], |b, p| {
            let (x, k) = (p[1], p[2]);
            let r = b.binop(BinOp::Mod, x, Operand::i64(2));
            let even = b.cmp(CmpOp::Eq, r, Operand::i64(0));
            let next = b.if_(
                even,
                |b| vec![b.div(x, Operand::i64(2)).into()],
                |b| {
                    let t = b.mul(x, Operand::i64(3));
                    vec![b.add(t, Operand::i64(1)).into()]
                },
            );
            let k1 = b.add(k, Operand::i64(1));
            let c = b.cmp(CmpOp::Gt, next[0], Operand::i64(1));
            vec![c.into(), next[0].into(), k1.into()]
        });
        vec![r[2].into()]
    });
    pb.entry("main", f);
    let _ = BOOL;
    pb.finish()
}
