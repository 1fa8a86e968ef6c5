//! Reverse mode of `reduce`: the special operators and the generic rule.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

fn reduce_with(op: BinOp, ne: f64) -> impl Fn(&mut Builder, &[VName]) -> Vec<Operand> {
    move |b: &mut Builder, p: &[VName]| {
        vec![b.reduce_op(op, &[p[0]], vec![Operand::f64(ne)])[0].into()]
    }
}

#[test]
fn sum_broadcasts_the_adjoint() {
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Add, 0.0),
        vec![f64s(&[1.0, 2.0, 3.0])],
        vec![f64v(2.5)],
    );
    assert_eq!(r, vec![f64s(&[2.5, 2.5, 2.5])]);
}

#[test]
fn product_without_zeros() {
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Mul, 1.0),
        vec![f64s(&[2.0, 3.0, 4.0])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[12.0, 8.0, 6.0])]);
}

#[test]
fn product_with_one_zero() {
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Mul, 1.0),
        vec![f64s(&[2.0, 0.0, 4.0])],
        vec![f64v(2.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 16.0, 0.0])]);
}

#[test]
fn product_with_two_zeros() {
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Mul, 1.0),
        vec![f64s(&[2.0, 0.0, 4.0, 0.0])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 0.0, 0.0, 0.0])]);
}

#[test]
fn product_of_empty_array_and_non_unit_neutral() {
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Mul, 1.0),
        vec![f64s(&[])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[])]);
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Mul, 3.0),
        vec![f64s(&[2.0, 5.0])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[15.0, 6.0])]);
}

#[test]
fn min_and_max_take_the_first_extremum() {
    let xs = vec![f64s(&[3.0, 1.0, 5.0, 1.0, 5.0])];
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Min, f64::INFINITY),
        xs.clone(),
        vec![f64v(2.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 2.0, 0.0, 0.0, 0.0])]);
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Max, f64::NEG_INFINITY),
        xs,
        vec![f64v(2.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 0.0, 2.0, 0.0, 0.0])]);
}

#[test]
fn max_where_the_neutral_element_wins() {
    // max with neutral 5: elements equal to 5 lose the tie; empty arrays are fine
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Max, 5.0),
        vec![f64s(&[1.0, 5.0])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[0.0, 0.0])]);
    let r = grad(
        &[v1()],
        &reduce_with(BinOp::Max, 0.0),
        vec![f64s(&[])],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[])]);
}

#[test]
fn vectorised_sum_of_rows() {
    let f = |b: &mut Builder, p: &[VName]| {
        let n = b.dim(p[0], 1);
        let zeros = b.replicate(n, Operand::f64(0.0));
        let r = b.reduce(true, &[p[0]], vec![zeros.into()], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| vec![b.add(q[0], q[1]).into()])[0].into()]
        });
        vec![r[0].into()]
    };
    let r = grad(
        &[arr(F64T, 2)],
        &f,
        vec![f64m(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])],
        vec![f64s(&[1.0, -1.0])],
    );
    assert_eq!(r, vec![f64m(3, 2, &[1.0, -1.0, 1.0, -1.0, 1.0, -1.0])]);
}

/// `x ⊙ y = x + y + x·y` is associative: ⊙-reduce = Π(1 + x_i) - 1.
#[test]
fn generic_scalar_operator() {
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.reduce(false, &[p[0]], vec![Operand::f64(0.0)], |b, x, y| {
            let s = b.add(x[0], y[0]);
            let m = b.mul(x[0], y[0]);
            vec![b.add(s, m).into()]
        });
        vec![r[0].into()]
    };
    let r = grad(&[v1()], &f, vec![f64s(&[1.0, 2.0, 3.0])], vec![f64v(1.0)]);
    // ∂/∂x_i Π(1+x_j) = Π_{j≠i}(1+x_j): (12, 8, 6)
    assert_eq!(r, vec![f64s(&[12.0, 8.0, 6.0])]);
    check_fd(
        &[v1()],
        &f,
        vec![f64s(&[0.3, -0.2, 1.5, 0.7])],
        vec![f64v(1.0)],
        1e-6,
    );
}

/// 2×2 matrix products as 4-tuples: associative, not commutative.
#[test]
fn generic_tuple_operator_that_does_not_commute() {
    let f = |b: &mut Builder, p: &[VName]| {
        let one = Operand::f64(1.0);
        let zero = Operand::f64(0.0);
        let r = b.reduce(
            false,
            &[p[0], p[1], p[2], p[3]],
            vec![one, zero, zero, one],
            |b, x, y| {
                let mut out = vec![];
                for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let a = b.mul(x[2 * i], y[j]);
                    let c = b.mul(x[2 * i + 1], y[2 + j]);
                    out.push(b.add(a, c).into());
                }
                out
            },
        );
        r.into_iter().map(Operand::Var).collect()
    };
    check_fd(
        &[v1(), v1(), v1(), v1()],
        &f,
        vec![
            f64s(&[1.0, 0.5, -0.3]),
            f64s(&[0.2, 1.1, 0.4]),
            f64s(&[-0.7, 0.3, 2.0]),
            f64s(&[1.5, -0.4, 0.9]),
        ],
        vec![f64v(1.0), f64v(-2.0), f64v(0.5), f64v(3.0)],
        1e-6,
    );
}

#[test]
fn sum_of_squares_in_f32() {
    let f = |b: &mut Builder, p: &[VName]| {
        let sq = b.map(&[p[0]], |b, x| vec![b.mul(x[0], x[0]).into()]);
        vec![b.reduce_op(BinOp::Add, &sq, vec![Operand::f32(0.0)])[0].into()]
    };
    let r = grad(
        &[arr(F32T, 1)],
        &f,
        vec![f32s(&[1.0, -2.0, 0.5])],
        vec![f32v(1.0)],
    );
    assert_eq!(r, vec![f32s(&[2.0, -4.0, 1.0])]);
}
