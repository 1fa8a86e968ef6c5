//! Reverse mode of `map`: bound inputs, free scalars, free arrays read
//! through accumulators, nesting, and branches inside the lambda.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

fn sum(b: &mut Builder, xs: VName) -> Operand {
    b.reduce_op(BinOp::Add, &[xs], vec![Operand::f64(0.0)])[0].into()
}

#[test]
fn map_of_products() {
    // y = Σ x_i·y_i
    let f = |b: &mut Builder, p: &[VName]| {
        let m = b.map(&[p[0], p[1]], |b, q| vec![b.mul(q[0], q[1]).into()]);
        vec![sum(b, m[0])]
    };
    let r = grad(
        &[v1(), v1()],
        &f,
        vec![f64s(&[1.0, 2.0, 3.0]), f64s(&[4.0, 5.0, 6.0])],
        vec![f64v(2.0)],
    );
    assert_eq!(r, vec![f64s(&[8.0, 10.0, 12.0]), f64s(&[2.0, 4.0, 6.0])]);
}

#[test]
fn free_scalar_contributions_are_summed() {
    // map (λx → sin(x·c)) xs, weighted by the seed
    let f = |b: &mut Builder, p: &[VName]| {
        let c = p[1];
        let m = b.map(&[p[0]], |b, q| {
            let t = b.mul(q[0], c);
            vec![b.unop(UnOp::Sin, t).into()]
        });
        vec![m[0].into()]
    };
    check_fd(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[0.1, -0.7, 2.0]), f64v(1.3)],
        vec![f64s(&[1.0, 2.0, -0.5])],
        1e-6,
    );
}

#[test]
fn free_array_gather_uses_accumulators() {
    // ys = map (λi → as[i]·as[i]) is, with repeated and out-of-order indices
    let f = |b: &mut Builder, p: &[VName]| {
        let a = p[0];
        let m = b.map(&[p[1]], |b, q| {
            let x = b.index(a, &[q[0].into()]);
            vec![b.mul(x, x).into()]
        });
        vec![m[0].into()]
    };
    let r = grad(
        &[v1(), arr(I64T, 1)],
        &f,
        vec![f64s(&[1.0, 2.0, 3.0]), i64s(&[2, 0, 2, 2])],
        vec![f64s(&[1.0, 10.0, 100.0, 1000.0])],
    );
    assert_eq!(
        r,
        vec![f64s(&[20.0, 0.0, 6.0 * 1101.0]), i64s(&[0, 0, 0, 0])]
    );
}

#[test]
fn matrix_vector_product() {
    // ys = map (λrow → Σ row·v) m
    let f = |b: &mut Builder, p: &[VName]| {
        let v = p[1];
        let m = b.map(&[p[0]], |b, row| {
            let prods = b.map(&[row[0], v], |b, q| vec![b.mul(q[0], q[1]).into()]);
            vec![sum(b, prods[0])]
        });
        vec![m[0].into()]
    };
    let mv = f64m(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let r = grad(
        &[arr(F64T, 2), v1()],
        &f,
        vec![mv, f64s(&[1.0, -1.0, 2.0])],
        vec![f64s(&[1.0, 10.0])],
    );
    // m̄ = ȳ vᵀ, v̄ = mᵀ ȳ
    assert_eq!(
        r,
        vec![
            f64m(2, 3, &[1.0, -1.0, 2.0, 10.0, -10.0, 20.0]),
            f64s(&[41.0, 52.0, 63.0])
        ]
    );
}

#[test]
fn nested_maps_with_free_variables_at_both_levels() {
    // map (λx → Σ (map (λa → a·x + w[0]·c) as)) xs
    let f = |b: &mut Builder, p: &[VName]| {
        let (asv, w, c) = (p[1], p[2], p[3]);
        let m = b.map(&[p[0]], |b, x| {
            let x = x[0];
            let inner = b.map(&[asv], |b, a| {
                let ax = b.mul(a[0], x);
                let w0 = b.index(w, &[Operand::i64(0)]);
                let wc = b.mul(w0, c);
                vec![b.add(ax, wc).into()]
            });
            let s = sum(b, inner[0]);
            vec![b.mul(s, s).into()]
        });
        vec![m[0].into()]
    };
    check_fd(
        &[v1(), v1(), v1(), f64t()],
        &f,
        vec![
            f64s(&[0.5, -1.0]),
            f64s(&[1.0, 2.0, 3.0]),
            f64s(&[0.7, 9.0]),
            f64v(0.3),
        ],
        vec![f64s(&[1.0, -2.0])],
        1e-6,
    );
}

#[test]
fn branches_inside_the_lambda() {
    // map (λx → if x > 0 then x·x·s else -x) xs
    let f = |b: &mut Builder, p: &[VName]| {
        let s = p[1];
        let m = b.map(&[p[0]], |b, x| {
            let x = x[0];
            let pos = b.cmp(CmpOp::Gt, x, Operand::f64(0.0));
            let r = b.if_(
                pos,
                |b| {
                    let xx = b.mul(x, x);
                    vec![b.mul(xx, s).into()]
                },
                |b| vec![b.neg(x).into()],
            );
            vec![r[0].into()]
        });
        vec![m[0].into()]
    };
    let r = grad(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[2.0, -3.0, 1.0]), f64v(5.0)],
        vec![f64s(&[1.0, 1.0, 2.0])],
    );
    assert_eq!(r, vec![f64s(&[20.0, -1.0, 20.0]), f64v(6.0)]);
}

#[test]
fn empty_map() {
    let f = |b: &mut Builder, p: &[VName]| {
        let c = p[1];
        let m = b.map(&[p[0]], |b, x| vec![b.mul(x[0], c).into()]);
        vec![sum(b, m[0])]
    };
    let r = grad(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[]), f64v(2.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[]), f64v(0.0)]);
}

#[test]
fn map_with_several_results_and_an_integer_input() {
    // map (λx i → (x·f64(i), x + 1)) xs (iota n)
    let f = |b: &mut Builder, p: &[VName]| {
        let n = b.width(p[0]);
        let is = b.iota(n);
        let m = b.map(&[p[0], is], |b, q| {
            let fi = b.cast(F64T, q[1]);
            vec![
                b.mul(q[0], fi).into(),
                b.add(q[0], Operand::f64(1.0)).into(),
            ]
        });
        vec![m[0].into(), m[1].into()]
    };
    let r = grad(
        &[v1()],
        &f,
        vec![f64s(&[1.0, 1.0, 1.0])],
        vec![f64s(&[1.0, 1.0, 1.0]), f64s(&[10.0, 20.0, 30.0])],
    );
    assert_eq!(r, vec![f64s(&[10.0, 21.0, 32.0])]);
}
