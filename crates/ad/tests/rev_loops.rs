//! Reverse mode of sequential loops (checkpointing) and `if`.

mod rev_util;
use parad_core::*;
use rev_util::*;

fn v1() -> Type {
    arr(F64T, 1)
}

#[test]
fn for_loop_power() {
    // loop y = 1 for i < 5 do y·x  ⇒ 5x⁴
    let f = |b: &mut Builder, p: &[VName]| {
        let x = p[0];
        let r = b.loop_for(&[Operand::f64(1.0)], Operand::i64(5), |b, _, ps| {
            vec![b.mul(ps[0], x).into()]
        });
        vec![r[0].into()]
    };
    let r = grad(&[f64t()], &f, vec![f64v(2.0)], vec![f64v(1.0)]);
    assert_eq!(r, vec![f64v(80.0)]);
}

#[test]
fn loop_with_swapped_parameters_and_index_use() {
    // loop (a, c) = (x, y) for i < 4 do (c·f64(i+1), sin a)
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.loop_for(&[p[0].into(), p[1].into()], Operand::i32(4), |b, i, ps| {
            let i64v = b.cast(I64T, i);
            let i1 = b.add(i64v, Operand::i64(1));
            let fi = b.cast(F64T, i1);
            let a = b.mul(ps[1], fi);
            let s = b.unop(UnOp::Sin, ps[0]);
            vec![a.into(), s.into()]
        });
        vec![r[0].into(), r[1].into()]
    };
    check_fd(
        &[f64t(), f64t()],
        &f,
        vec![f64v(0.4), f64v(-0.9)],
        vec![f64v(1.0), f64v(0.5)],
        1e-6,
    );
}

#[test]
fn loop_over_an_array_with_in_place_updates() {
    // loop xs' = xs for i < n-1 do xs' with [i+1] = xs'[i]·xs'[i+1] + c
    let f = |b: &mut Builder, p: &[VName]| {
        let c = p[1];
        let n = b.width(p[0]);
        let n1 = b.sub(n, Operand::i64(1));
        let r = b.loop_for(&[p[0].into()], n1, |b, i, ps| {
            let a = b.index(ps[0], &[i.into()]);
            let i1 = b.add(i, Operand::i64(1));
            let d = b.index(ps[0], &[i1.into()]);
            let m = b.mul(a, d);
            let v = b.add(m, c);
            vec![b.update(ps[0], &[i1.into()], v).into()]
        });
        vec![r[0].into()]
    };
    check_fd(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[0.5, 1.2, -0.7, 0.9]), f64v(0.3)],
        vec![f64s(&[1.0, 2.0, -1.0, 0.5])],
        1e-6,
    );
}

#[test]
fn loop_reading_a_free_array_and_summing() {
    // loop acc = 0 for i < n do acc + xs[i]·xs[i]·s
    let f = |b: &mut Builder, p: &[VName]| {
        let (xs, s) = (p[0], p[1]);
        let n = b.width(xs);
        let r = b.loop_for(&[Operand::f64(0.0)], n, |b, i, ps| {
            let x = b.index(xs, &[i.into()]);
            let xx = b.mul(x, x);
            let t = b.mul(xx, s);
            vec![b.add(ps[0], t).into()]
        });
        vec![r[0].into()]
    };
    let r = grad(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[1.0, 2.0, 3.0]), f64v(2.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64s(&[4.0, 8.0, 12.0]), f64v(14.0)]);
}

#[test]
fn zero_trip_loop() {
    let f = |b: &mut Builder, p: &[VName]| {
        let x = p[0];
        let r = b.loop_for(&[p[0].into()], Operand::i64(0), |b, _, ps| {
            vec![b.mul(ps[0], x).into()]
        });
        vec![r[0].into()]
    };
    let r = grad(&[f64t()], &f, vec![f64v(3.0)], vec![f64v(1.0)]);
    assert_eq!(r, vec![f64v(1.0)]);
}

#[test]
fn while_loop_counts_its_iterations() {
    // loop (go, y, k) = (true, x, 0) while go do (k+1 < 3, y·y, k+1)  ⇒ y = x⁸
    let f = |b: &mut Builder, p: &[VName]| {
        let r = b.loop_while(
            &[Operand::bool(true), p[0].into(), Operand::i64(0)],
            |b, ps| {
                let k1 = b.add(ps[2], Operand::i64(1));
                let go = b.cmp(CmpOp::Lt, k1, Operand::i64(3));
                let y = b.mul(ps[1], ps[1]);
                vec![go.into(), y.into(), k1.into()]
            },
        );
        vec![r[1].into()]
    };
    let r = grad(&[f64t()], &f, vec![f64v(1.5)], vec![f64v(1.0)]);
    assert_close(&floats(&r[0]), &[8.0 * 1.5f64.powi(7)], 1e-12, "x̄");
}

#[test]
fn if_with_free_variables_in_each_branch() {
    // if c > 0 then x·y else y·y·z
    let f = |b: &mut Builder, p: &[VName]| {
        let (c, x, y, z) = (p[0], p[1], p[2], p[3]);
        let pos = b.cmp(CmpOp::Gt, c, Operand::f64(0.0));
        let r = b.if_(
            pos,
            |b| vec![b.mul(x, y).into()],
            |b| {
                let yy = b.mul(y, y);
                vec![b.mul(yy, z).into()]
            },
        );
        vec![r[0].into()]
    };
    let t = [f64t(), f64t(), f64t(), f64t()];
    let r = grad(
        &t,
        &f,
        vec![f64v(1.0), f64v(2.0), f64v(3.0), f64v(4.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64v(0.0), f64v(3.0), f64v(2.0), f64v(0.0)]);
    let r = grad(
        &t,
        &f,
        vec![f64v(-1.0), f64v(2.0), f64v(3.0), f64v(4.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64v(0.0), f64v(0.0), f64v(24.0), f64v(9.0)]);
}

#[test]
fn if_that_updates_an_array_in_one_branch() {
    let f = |b: &mut Builder, p: &[VName]| {
        let (xs, x) = (p[0], p[1]);
        // Read before the update consumes `xs` (a use after it is invalid).
        let c = b.index(xs, &[Operand::i64(0)]);
        let pos = b.cmp(CmpOp::Gt, x, Operand::f64(0.0));
        let ys = b.if_(
            pos,
            |b| {
                let xx = b.mul(x, x);
                vec![b.update(xs, &[Operand::i64(0)], xx).into()]
            },
            |_| vec![xs.into()],
        );
        let a = b.index(ys[0], &[Operand::i64(0)]);
        vec![b.mul(a, c).into()]
    };
    check_fd(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[2.0, 3.0]), f64v(1.5)],
        vec![f64v(1.0)],
        1e-6,
    );
    check_fd(
        &[v1(), f64t()],
        &f,
        vec![f64s(&[2.0, 3.0]), f64v(-1.5)],
        vec![f64v(1.0)],
        1e-6,
    );
}
