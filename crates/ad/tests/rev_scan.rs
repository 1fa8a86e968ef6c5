//! Reverse mode of `scan`: `+`, the generic linear-recurrence rule on
//! scalars and tuples.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

fn unit(n: usize, i: usize) -> Value {
    let mut v = vec![0.0; n];
    v[i] = 1.0;
    f64s(&v)
}
use parad_values::Value;

#[test]
fn prefix_sums_give_suffix_sums() {
    let f = |b: &mut Builder, p: &[VName]| {
        vec![b.scan(&[p[0]], vec![Operand::f64(0.0)], |b, x, y| {
            vec![b.add(x[0], y[0]).into()]
        })[0]
            .into()]
    };
    let r = grad(
        &[v1()],
        &f,
        vec![f64s(&[1.0, 2.0, 3.0, 4.0])],
        vec![f64s(&[1.0, 10.0, 100.0, 1000.0])],
    );
    assert_eq!(r, vec![f64s(&[1111.0, 1110.0, 1100.0, 1000.0])]);
}

#[test]
fn vectorised_prefix_sums() {
    let f = |b: &mut Builder, p: &[VName]| {
        let n = b.dim(p[0], 1);
        let z = b.replicate(n, Operand::f64(0.0));
        vec![b.scan(&[p[0]], vec![z.into()], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| vec![b.add(q[0], q[1]).into()])[0].into()]
        })[0]
            .into()]
    };
    let r = grad(
        &[arr(F64T, 2)],
        &f,
        vec![f64m(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])],
        vec![f64m(3, 2, &[1.0, 2.0, 10.0, 20.0, 100.0, 200.0])],
    );
    assert_eq!(
        r,
        vec![f64m(3, 2, &[111.0, 222.0, 110.0, 220.0, 100.0, 200.0])]
    );
}

/// The Jacobian of `scan (*) 1 [1,2,3,4,5]`, one row per vjp.
#[test]
fn prefix_products_jacobian() {
    let f = |b: &mut Builder, p: &[VName]| {
        vec![b.scan(&[p[0]], vec![Operand::f64(1.0)], |b, x, y| {
            vec![b.mul(x[0], y[0]).into()]
        })[0]
            .into()]
    };
    let expected = [
        [1.0, 0.0, 0.0, 0.0, 0.0],
        [2.0, 1.0, 0.0, 0.0, 0.0],
        [6.0, 3.0, 2.0, 0.0, 0.0],
        [24.0, 12.0, 8.0, 6.0, 0.0],
        [120.0, 60.0, 40.0, 30.0, 24.0],
    ];
    for (i, row) in expected.iter().enumerate() {
        let r = grad(
            &[v1()],
            &f,
            vec![f64s(&[1.0, 2.0, 3.0, 4.0, 5.0])],
            vec![unit(5, i)],
        );
        assert_eq!(r, vec![f64s(row)], "row {i}");
    }
}

#[test]
fn prefix_products_with_zeros_and_empty_input() {
    let f = |b: &mut Builder, p: &[VName]| {
        vec![b.scan(&[p[0]], vec![Operand::f64(1.0)], |b, x, y| {
            vec![b.mul(x[0], y[0]).into()]
        })[0]
            .into()]
    };
    check_fd(
        &[v1()],
        &f,
        vec![f64s(&[1.5, 0.0, -2.0, 0.0, 3.0])],
        vec![f64s(&[1.0, 2.0, 3.0, 4.0, 5.0])],
        1e-6,
    );
    let r = grad(&[v1()], &f, vec![f64s(&[])], vec![f64s(&[])]);
    assert_eq!(r, vec![f64s(&[])]);
}

/// Composition of affine maps `(a, b)`: `x ↦ a·x + b`, a non-commutative
/// tuple operator whose Jacobian is not diagonal.
#[test]
fn affine_composition_tuple_operator() {
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.scan(
            &[p[0], p[1]],
            vec![Operand::f64(1.0), Operand::f64(0.0)],
            |b, x, y| {
                let a = b.mul(y[0], x[0]);
                let t = b.mul(y[0], x[1]);
                let c = b.add(t, y[1]);
                vec![a.into(), c.into()]
            },
        );
        vec![r[0].into(), r[1].into()]
    };
    check_fd(
        &[v1(), v1()],
        &f,
        vec![f64s(&[0.5, -1.2, 2.0, 0.7]), f64s(&[1.0, 0.3, -0.4, 2.5])],
        vec![f64s(&[1.0, -1.0, 0.5, 2.0]), f64s(&[0.3, 1.0, -2.0, 1.5])],
        1e-6,
    );
}

/// `(a1 + a2, b1·b2, max c1 c2)` with neutral `(0, 1, -∞)`: the
/// diagonal-Jacobian example, with ties in the max component.
#[test]
fn componentwise_triple_operator() {
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.scan(
            &[p[0], p[1], p[2]],
            vec![
                Operand::f64(0.0),
                Operand::f64(1.0),
                Operand::f64(f64::NEG_INFINITY),
            ],
            |b, x, y| {
                vec![
                    b.add(x[0], y[0]).into(),
                    b.mul(x[1], y[1]).into(),
                    b.binop(BinOp::Max, x[2], y[2]).into(),
                ]
            },
        );
        r.into_iter().map(Operand::Var).collect()
    };
    // Row 3 of the Jacobian (all three outputs seeded at position 3).
    let r = grad(
        &[v1(), v1(), v1()],
        &f,
        vec![
            f64s(&[1.0, 4.0, 3.0, 4.0]),
            f64s(&[2.0, 3.0, 4.0, 2.0]),
            f64s(&[3.0, 5.0, 2.0, 1.0]),
        ],
        vec![unit(4, 3), unit(4, 3), unit(4, 3)],
    );
    assert_eq!(
        r,
        vec![
            f64s(&[1.0, 1.0, 1.0, 1.0]),
            f64s(&[24.0, 16.0, 12.0, 24.0]),
            f64s(&[0.0, 1.0, 0.0, 0.0])
        ]
    );
}

#[test]
fn scan_with_integer_component() {
    // (value, count) pairs: running sum of squares-ish with an i64 counter
    let f = |b: &mut Builder, p: &[VName]| {
        let n = b.width(p[0]);
        let ones = b.replicate(n, Operand::i64(1));
        let r = b.scan(
            &[p[0], ones],
            vec![Operand::f64(0.0), Operand::i64(0)],
            |b, x, y| {
                let k = b.add(x[1], y[1]);
                let kf = b.cast(F64T, k);
                let t = b.mul(y[0], kf);
                vec![b.add(x[0], t).into(), k.into()]
            },
        );
        vec![r[0].into()]
    };
    check_fd(
        &[v1()],
        &f,
        vec![f64s(&[0.5, 1.5, -2.0])],
        vec![f64s(&[1.0, 2.0, 3.0])],
        1e-6,
    );
}

/// `scan (map2 (*)) [1, 1]` over rows: each column is a prefix product.
#[test]
fn vectorised_generic_operator() {
    let f = |b: &mut Builder, p: &[VName]| {
        let ones = b.replicate(Operand::i64(2), Operand::f64(1.0));
        vec![b.scan(&[p[0]], vec![ones.into()], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| vec![b.mul(q[0], q[1]).into()])[0].into()]
        })[0]
            .into()]
    };
    let xs: Vec<f64> = (1..=5).flat_map(|i| [i as f64, i as f64]).collect();
    let mut seed = vec![0.0; 10];
    seed[6] = 1.0; // row 3, column 0
    seed[9] = 1.0; // row 4, column 1
    let r = grad(
        &[arr(F64T, 2)],
        &f,
        vec![f64m(5, 2, &xs)],
        vec![f64m(5, 2, &seed)],
    );
    assert_eq!(
        r,
        vec![f64m(
            5,
            2,
            &[24.0, 120.0, 12.0, 60.0, 8.0, 40.0, 6.0, 30.0, 0.0, 24.0]
        )]
    );
}
