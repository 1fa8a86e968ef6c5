//! Reverse mode of `reduce_by_index`: `+`, `*`, min/max and the generic
//! sort-based rule, with out-of-bounds indices, ties and zeros.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

const IS: [i64; 18] = [4, 5, 2, 4, 5, 2, 0, 0, 4, 5, 1, 4, 1, 3, 3, 1, 8, -1];
const DST: [f64; 8] = [1.0, 2.0, 0.0, 4.0, 5.0, 0.0, 9.0, 0.0];
const VS: [f64; 18] = [
    11.0, 16.0, 7.0, 0.0, 14.0, 6.0, 2.0, 1.0, 13.0, 0.0, 5.0, 0.0, 3.0, 0.0, 9.0, 4.0, 17.0, 18.0,
];

/// `reduce_by_index (copy dst) op ne is vs`.
fn rbi(op: BinOp, ne: f64) -> impl Fn(&mut Builder, &[VName]) -> Vec<Operand> {
    move |b: &mut Builder, p: &[VName]| {
        let d = b.copy(p[0]);
        let r = b.hist(&[d], vec![Operand::f64(ne)], p[1], &[p[2]], |b, x, y| {
            vec![b.binop(op, x[0], y[0]).into()]
        });
        vec![r[0].into()]
    }
}

fn tys() -> Vec<Type> {
    vec![v1(), arr(I64T, 1), v1()]
}

fn inputs(dst: &[f64], is: &[i64], vs: &[f64]) -> Vec<parad_values::Value> {
    vec![f64s(dst), i64s(is), f64s(vs)]
}

#[test]
fn sum_histogram_skips_out_of_bounds_values() {
    let r = grad(
        &tys(),
        &rbi(BinOp::Add, 0.0),
        inputs(&DST, &IS, &VS),
        vec![f64s(&[1.0; 8])],
    );
    let mut vb = vec![1.0; 18];
    vb[16] = 0.0;
    vb[17] = 0.0;
    assert_eq!(r[0], f64s(&[1.0; 8]));
    assert_eq!(r[2], f64s(&vb));
}

#[test]
fn product_histogram_with_zeros_per_bucket() {
    let r = grad(
        &tys(),
        &rbi(BinOp::Mul, 1.0),
        inputs(&DST, &IS, &VS),
        vec![f64s(&[1.0; 8])],
    );
    assert_eq!(r[0], f64s(&[2.0, 60.0, 42.0, 0.0, 0.0, 0.0, 1.0, 1.0]));
    assert_eq!(
        r[2],
        f64s(&[
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 24.0, 0.0, 40.0, 36.0, 0.0, 30.0,
            0.0, 0.0
        ])
    );
}

#[test]
fn product_histogram_reads_the_original_destination() {
    // a = map (²) dst; h = reduce_by_index (copy dst) (*) 1 is vs; a + h
    let f = |b: &mut Builder, p: &[VName]| {
        let a = b.map(&[p[0]], |b, x| vec![b.mul(x[0], x[0]).into()]);
        let h = rbi(BinOp::Mul, 1.0)(b, p);
        let hv = h[0].var().unwrap();
        vec![b.map(&[a[0], hv], |b, q| vec![b.add(q[0], q[1]).into()])[0].into()]
    };
    let r = grad(
        &tys(),
        &f,
        inputs(
            &[2.0, 1.0, 1.0, 1.0, 1.0],
            &[0, 0, 0, 0, 0],
            &[1.0, 2.0, 3.0, 4.0, 10.0],
        ),
        vec![f64s(&[1.0, 0.0, 0.0, 0.0, 0.0])],
    );
    assert_eq!(r[0], f64s(&[244.0, 0.0, 0.0, 0.0, 0.0]));
}

#[test]
fn max_histogram_ties() {
    // a value that ties with another goes to the lower index
    let r = grad(
        &tys(),
        &rbi(BinOp::Max, f64::NEG_INFINITY),
        inputs(&[0.0; 5], &[0, 0, 0, 0, 0], &[0.0, 1.0, 2.0, 3.0, 3.0]),
        vec![f64s(&[1.0, 0.0, 0.0, 0.0, 0.0])],
    );
    assert_eq!(r[2], f64s(&[0.0, 0.0, 0.0, 1.0, 0.0]));
    assert_eq!(r[0], f64s(&[0.0; 5]));
    // a tie with the destination goes to the destination
    let r = grad(
        &tys(),
        &rbi(BinOp::Max, f64::NEG_INFINITY),
        inputs(
            &[5.0, 0.0, 0.0, 0.0, 0.0],
            &[0, 0, 0, 0, 0],
            &[5.0, 4.0, 3.0, 2.0, 1.0],
        ),
        vec![f64s(&[1.0, 0.0, 0.0, 0.0, 0.0])],
    );
    assert_eq!(r[2], f64s(&[0.0; 5]));
    assert_eq!(r[0], f64s(&[1.0, 0.0, 0.0, 0.0, 0.0]));
}

#[test]
fn min_histogram_with_out_of_bounds_and_empty_buckets() {
    let r = grad(
        &tys(),
        &rbi(BinOp::Min, f64::INFINITY),
        inputs(
            &[10.0, 10.0, 10.0],
            &[0, 7, 0, -3, 2, 2],
            &[4.0, -9.0, 3.0, -9.0, 12.0, 8.0],
        ),
        vec![f64s(&[1.0, 2.0, 3.0])],
    );
    assert_eq!(r[0], f64s(&[0.0, 2.0, 0.0]));
    assert_eq!(r[2], f64s(&[0.0, 0.0, 1.0, 0.0, 0.0, 3.0]));
}

/// Generic operator `x·y·2` (neutral 0.5), result multiplied by `c`.
#[test]
fn generic_operator_matches_the_expected_adjoints() {
    let f = |b: &mut Builder, p: &[VName]| {
        let d = b.copy(p[0]);
        let h = b.hist(&[d], vec![Operand::f64(0.5)], p[1], &[p[2]], |b, x, y| {
            let m = b.mul(x[0], y[0]);
            vec![b.mul(m, Operand::f64(2.0)).into()]
        });
        vec![b.map(&[h[0], p[3]], |b, q| vec![b.mul(q[0], q[1]).into()])[0].into()]
    };
    let c: Vec<f64> = (1..=8).map(|x| x as f64).collect();
    let mut ins = inputs(&DST, &IS, &VS);
    ins.push(f64s(&c));
    let r = grad(
        &[v1(), arr(I64T, 1), v1(), v1()],
        &f,
        ins,
        vec![f64s(&[1.0; 8])],
    );
    assert_eq!(r[0], f64s(&[8.0, 960.0, 504.0, 0.0, 0.0, 0.0, 7.0, 8.0]));
    assert_eq!(
        r[2],
        f64s(&[
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 8.0, 0.0, 0.0, 384.0, 0.0, 640.0, 576.0, 0.0, 480.0,
            0.0, 0.0
        ])
    );
    assert_eq!(r[3], f64s(&[8.0, 960.0, 0.0, 0.0, 0.0, 0.0, 9.0, 0.0]));
}

/// Generic argmax on `(value, index)` pairs: ties with the destination
/// (index -1) go to the destination, ties among values to the lower index.
#[test]
fn generic_argmax_operator() {
    let f = |b: &mut Builder, p: &[VName]| {
        let d = b.copy(p[0]);
        let di = b.copy(p[1]);
        let h = b.hist(
            &[d, di],
            vec![Operand::f64(f64::NEG_INFINITY), Operand::i64(-1)],
            p[2],
            &[p[3], p[4]],
            |b, x, y| {
                let xw = b.cmp(CmpOp::Gt, x[0], y[0]);
                let yw = b.cmp(CmpOp::Gt, y[0], x[0]);
                let lo = b.binop(BinOp::Min, x[1], y[1]);
                let v = b.if_(yw, |_| vec![y[0].into()], |_| vec![x[0].into()]);
                let it = b.if_(yw, |_| vec![y[1].into()], |_| vec![lo.into()]);
                let i = b.if_(xw, |_| vec![x[1].into()], |_| vec![it[0].into()]);
                vec![v[0].into(), i[0].into()]
            },
        );
        vec![h[0].into(), h[1].into()]
    };
    let r = grad(
        &[v1(), arr(I64T, 1), arr(I64T, 1), v1(), arr(I64T, 1)],
        &f,
        vec![
            f64s(&[0.0, 1.0, 2.0, 3.0, 4.0]),
            i64s(&[-1; 5]),
            i64s(&[0, 1, 2, 3, 2, 1, 0, 1, 2]),
            f64s(&[-5.0, 0.0, 2.0, 5.0, 4.0, 1.0, -2.0, -8.0, 4.0]),
            i64s(&[0, 1, 2, 3, 4, 5, 6, 7, 8]),
        ],
        vec![f64s(&[1.0; 5]), i64s(&[1; 5])],
    );
    assert_eq!(r[0], f64s(&[1.0, 1.0, 0.0, 0.0, 1.0]));
    assert_eq!(r[3], f64s(&[0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]));
}

#[test]
fn generic_operator_matches_finite_differences() {
    // x ⊙ y = x + y + x·y (associative, commutative)
    let f = |b: &mut Builder, p: &[VName]| {
        let d = b.copy(p[0]);
        let h = b.hist(&[d], vec![Operand::f64(0.0)], p[1], &[p[2]], |b, x, y| {
            let s = b.add(x[0], y[0]);
            let m = b.mul(x[0], y[0]);
            vec![b.add(s, m).into()]
        });
        vec![h[0].into()]
    };
    check_fd(
        &tys(),
        &f,
        inputs(
            &[0.3, -0.5, 1.2, 0.1],
            &[3, 0, 3, 9, 1, 3, -1, 0, 2],
            &[0.2, 0.4, -0.3, 5.0, 0.9, 0.1, 7.0, -0.6, 1.1],
        ),
        vec![f64s(&[1.0, -2.0, 0.5, 3.0])],
        1e-6,
    );
}

#[test]
fn empty_histogram_inputs() {
    let r = grad(
        &tys(),
        &rbi(BinOp::Mul, 1.0),
        inputs(&[2.0, 3.0], &[], &[]),
        vec![f64s(&[1.0, 2.0])],
    );
    assert_eq!(r[0], f64s(&[1.0, 2.0]));
    assert_eq!(r[2], f64s(&[]));
}
