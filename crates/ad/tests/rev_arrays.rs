//! Reverse mode of indexing, in-place updates, scatter and the layout
//! operations.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

#[test]
fn index_adds_into_one_element() {
    // y = xs[1]·xs[1] + xs[2]
    let f = |b: &mut Builder, p: &[VName]| {
        let a = b.index(p[0], &[Operand::i64(1)]);
        let c = b.index(p[0], &[Operand::i64(2)]);
        let sq = b.mul(a, a);
        vec![b.add(sq, c).into()]
    };
    let r = grad(
        &[v1()],
        &f,
        vec![f64s(&[5.0, 3.0, 1.0, 9.0])],
        vec![f64v(2.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 12.0, 2.0, 0.0])]);
}

#[test]
fn row_and_strided_slices() {
    // rows: y = sum of row 1 via xss[1][0] + xss[1][1]; slice xs[3:0:-1] reversed read
    let f = |b: &mut Builder, p: &[VName]| {
        let row = b.index(p[0], &[Operand::i64(1)]);
        let a = b.index(row, &[Operand::i64(0)]);
        let c = b.index(row, &[Operand::i64(1)]);
        let s = b.slice(
            p[1],
            vec![DimIndex::Slice {
                start: Operand::i64(3),
                len: Operand::i64(2),
                stride: Operand::i64(-2),
            }],
        );
        let s0 = b.index(s, &[Operand::i64(0)]);
        let s1 = b.index(s, &[Operand::i64(1)]);
        let t = b.mul(s0, Operand::f64(10.0));
        let u = b.add(a, c);
        let u = b.add(u, t);
        vec![b.add(u, s1).into()]
    };
    let r = grad(
        &[arr(F64T, 2), v1()],
        &f,
        vec![
            f64m(2, 2, &[1.0, 2.0, 3.0, 4.0]),
            f64s(&[1.0, 2.0, 3.0, 4.0]),
        ],
        vec![f64v(1.0)],
    );
    assert_eq!(
        r,
        vec![
            f64m(2, 2, &[0.0, 0.0, 1.0, 1.0]),
            f64s(&[0.0, 1.0, 0.0, 10.0])
        ]
    );
}

#[test]
fn update_gives_the_overwritten_element_no_adjoint() {
    // ys = xs with [1] = x·x;  y = ys[0] + 3·ys[1] + ys[2]
    let f = |b: &mut Builder, p: &[VName]| {
        let sq = b.mul(p[1], p[1]);
        let ys = b.update(p[0], &[Operand::i64(1)], sq);
        let a = b.index(ys, &[Operand::i64(0)]);
        let c = b.index(ys, &[Operand::i64(1)]);
        let d = b.index(ys, &[Operand::i64(2)]);
        let c3 = b.mul(c, Operand::f64(3.0));
        let s = b.add(a, c3);
        vec![b.add(s, d).into()]
    };
    let r = grad(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[1.0, 2.0, 3.0]), f64v(5.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[1.0, 0.0, 1.0]), f64v(30.0)]);
}

#[test]
fn earlier_reads_see_the_restored_array() {
    // a = xs[1]; ys = xs with [1] = 0; y = a·ys[0]·xs... (xs read before the update)
    let f = |b: &mut Builder, p: &[VName]| {
        let a = b.index(p[0], &[Operand::i64(1)]);
        let sq = b.mul(a, a);
        let ys = b.update(p[0], &[Operand::i64(1)], Operand::f64(0.0));
        let c = b.index(ys, &[Operand::i64(0)]);
        vec![b.mul(sq, c).into()]
    };
    // y = xs1²·xs0 ⇒ (xs1², 2·xs1·xs0, 0)
    check_fd(
        &[v1()],
        &f,
        vec![f64s(&[2.0, 3.0, 4.0])],
        vec![f64v(1.0)],
        1e-6,
    );
    let r = grad(&[v1()], &f, vec![f64s(&[2.0, 3.0, 4.0])], vec![f64v(1.0)]);
    assert_eq!(r, vec![f64s(&[9.0, 12.0, 0.0])]);
}

#[test]
fn scatter_with_out_of_bounds_indices() {
    // ys = scatter (copy xs) is (map (*2) vs); result ys·weights
    let f = |b: &mut Builder, p: &[VName]| {
        let dst = b.copy(p[0]);
        let w = b.width(p[2]);
        let vs2 = b.map(&[p[2]], |b, v| vec![b.mul(v[0], Operand::f64(2.0)).into()]);
        let ys = b.emit1(Exp::Soac(Soac::Scatter(Scatter {
            w,
            dests: vec![ScatterDest {
                arr: dst,
                inds: vec![p[1]],
                vals: vs2[0],
            }],
        })));
        let n = b.width(ys);
        let iota = b.iota(n);
        let ws = b.map(&[iota], |b, i| {
            let f = b.cast(F64T, i[0]);
            vec![b.add(f, Operand::f64(1.0)).into()]
        });
        let prods = b.map(&[ys, ws[0]], |b, p| vec![b.mul(p[0], p[1]).into()]);
        vec![b.reduce_op(BinOp::Add, &prods, vec![Operand::f64(0.0)])[0].into()]
    };
    let r = grad(
        &[v1(), arr(I64T, 1), v1()],
        &f,
        vec![
            f64s(&[1.0, 1.0, 1.0, 1.0]),
            i64s(&[2, -1, 0, 4]),
            f64s(&[5.0, 6.0, 7.0, 8.0]),
        ],
        vec![f64v(1.0)],
    );
    // weights 1..4; positions 2 and 0 overwritten
    assert_eq!(
        r,
        vec![
            f64s(&[0.0, 2.0, 0.0, 4.0]),
            i64s(&[0, 0, 0, 0]),
            f64s(&[6.0, 0.0, 2.0, 0.0])
        ]
    );
}

#[test]
fn layout_operations_match_finite_differences() {
    // A chain of reverse, rotate, concat, reshape, transpose, flatten,
    // copy and replicate, then a weighted sum.
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.reverse(p[0]);
        let r = b.rotate(Operand::i64(1), r);
        let c = b.concat(vec![r, p[0]]); // 8
        let m = b.unflatten(c, Operand::i64(2), Operand::i64(4));
        let t = b.transpose(m); // [4][2]
        let fl = b.flatten(t); // 8
        let rs = b.reshape(fl, vec![Operand::i64(4), Operand::i64(2)]);
        let cp = b.copy(rs);
        let fl2 = b.flatten(cp);
        let x0 = b.index(p[0], &[Operand::i64(0)]);
        let rep = b.replicate(Operand::i64(8), x0);
        let n = b.width(fl2);
        let iota = b.iota(n);
        let prods = b.map(&[fl2, rep, iota], |b, q| {
            let w = b.cast(F64T, q[2]);
            let w = b.add(w, Operand::f64(1.0));
            let a = b.mul(q[0], w);
            let s = b.mul(a, q[1]);
            vec![s.into()]
        });
        vec![b.reduce_op(BinOp::Add, &prods, vec![Operand::f64(0.0)])[0].into()]
    };
    check_fd(
        &[v1()],
        &f,
        vec![f64s(&[1.0, -2.0, 3.5, 0.5])],
        vec![f64v(1.0)],
        1e-6,
    );
}
