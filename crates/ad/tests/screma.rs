//! AD of a function containing a `screma` (built by hand: lowering makes
//! none) against the same function written as separate `map`, `scan` and
//! `reduce`: AD splits the `screma` first, so primal results, tangents
//! and adjoints must agree on the same random inputs, seeds and adjoints.
//! The fused version is also checked on its own (`jvp` against finite
//! differences, and against `vjp` by the dot-product test).

mod harness;
use harness::*;
use parad_core::*;
use parad_values::Value;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `(x, y) ↦ (x·y, x, y, x, x + y²)`: inputs of a `+` scan, of an
/// affine reduction, of a product reduction, then one mapped value.
fn row_fn(b: &mut Builder, r: &[VName]) -> Vec<Operand> {
    let xy = b.mul(r[0], r[1]);
    let y2 = b.mul(r[1], r[1]);
    let m = b.add(r[0], y2);
    vec![xy.into(), r[0].into(), r[1].into(), r[0].into(), m.into()]
}

fn plus(b: &mut Builder) -> AccOp {
    AccOp {
        lam: b.binop_lambda(BinOp::Add, vec![f64_type()]),
        neutral: vec![c(0.0)],
    }
}

fn times(b: &mut Builder) -> AccOp {
    AccOp {
        lam: b.binop_lambda(BinOp::Mul, vec![f64_type()]),
        neutral: vec![c(1.0)],
    }
}

/// Composition of affine maps, `(a1, b1) ∘ (a2, b2) = (a2·a1, a2·b1 + b2)`.
fn affine(b: &mut Builder) -> AccOp {
    let lam = b.op_lambda(vec![f64_type(); 2], |b, x, y| {
        let a = b.mul(y[0], x[0]);
        let t = b.mul(y[0], x[1]);
        vec![a.into(), b.add(t, y[1]).into()]
    });
    AccOp {
        lam,
        neutral: vec![c(1.0), c(0.0)],
    }
}

/// The fused form over the rows of `xs` and `ys`.
fn fused(b: &mut Builder, xs: VName, ys: VName) -> Vec<Operand> {
    let w = b.width(xs);
    let lam = b.lambda(vec![f64_type(); 2], row_fn);
    let scans = vec![plus(b)];
    let reds = vec![
        Reduction {
            comm: false,
            op: affine(b),
        },
        Reduction {
            comm: true,
            op: times(b),
        },
    ];
    let sc = Screma {
        w,
        arrs: vec![xs, ys],
        scans,
        reds,
        lam,
    };
    b.emit(sc).into_iter().map(Operand::Var).collect()
}

/// The same as separate SOACs.
fn separate(b: &mut Builder, xs: VName, ys: VName) -> Vec<Operand> {
    let m = b.map(&[xs, ys], row_fn);
    let w = b.width(xs);
    let mut out = vec![];
    let op = plus(b);
    out.extend(b.emit(Scan {
        w,
        op,
        arrs: m[..1].to_vec(),
    }));
    let op = affine(b);
    out.extend(b.emit(Reduce {
        w,
        comm: false,
        op,
        arrs: m[1..3].to_vec(),
    }));
    let op = times(b);
    out.extend(b.emit(Reduce {
        w,
        comm: true,
        op,
        arrs: m[3..4].to_vec(),
    }));
    out.push(m[4]);
    out.into_iter().map(Operand::Var).collect()
}

type Form = fn(&mut Builder, VName, VName) -> Vec<Operand>;

/// `f xs ys` in the given form.
fn flat_fun(form: Form) -> Fun {
    Fun::new(&[&[6], &[6]], move |b, p| form(b, p[0], p[1]))
}

/// The given form on each row of `[3][4]` matrices (the `screma`
/// nested in a `map`), one result per row.
fn nested_fun(form: Form) -> Fun {
    Fun::new(&[&[3, 4], &[3, 4]], move |b, p| {
        let rows = b.map(&[p[0], p[1]], |b, r| form(b, r[0], r[1]));
        rows.into_iter().map(Operand::Var).collect()
    })
}

fn random(rng: &mut StdRng, shape: &[usize]) -> Value {
    let n = shape.iter().product();
    let xs: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.5..1.5)).collect();
    value(shape, &xs)
}

fn shape(v: &Value) -> Vec<usize> {
    match v {
        Value::Array(a) => a.shape.clone(),
        Value::Scalar(_) => vec![],
    }
}

fn assert_all_close(a: &[Value], e: &[Value], what: &str) {
    assert_eq!(a.len(), e.len(), "{what}: numbers of values differ");
    for (k, (a, e)) in a.iter().zip(e).enumerate() {
        assert_close(&flat(a), &flat(e), 1e-12, &format!("{what} {k}"));
    }
}

/// Same results, tangents and adjoints for `fused` and `split` on
/// random inputs, directions and result adjoints.
fn same_derivatives(fused: &Fun, split: &Fun, seed: u64) {
    let before = program(fused, Modes::default());
    let screma = |s: &Stm| matches!(s.exp, Exp::Soac(Soac::Screma(_)));
    assert_eq!(walk::count(&before, screma), 1, "{before}");
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..3 {
        let xs: Vec<Value> = fused.shapes.iter().map(|s| random(&mut rng, s)).collect();
        let dxs: Vec<Value> = fused.shapes.iter().map(|s| random(&mut rng, s)).collect();
        let (ys, ts) = jvp_at(fused, xs.clone(), dxs.clone());
        let (ys_split, ts_split) = jvp_at(split, xs.clone(), dxs);
        assert_all_close(&ys, &ys_split, "jvp result");
        assert_all_close(&ts, &ts_split, "tangent");
        let ybars: Vec<Value> = ys.iter().map(|y| random(&mut rng, &shape(y))).collect();
        let (ys, xbars) = vjp_at(fused, xs.clone(), ybars.clone());
        let (ys_split, xbars_split) = vjp_at(split, xs, ybars);
        assert_all_close(&ys, &ys_split, "vjp result");
        assert_all_close(&xbars, &xbars_split, "adjoint");
    }
}

#[test]
fn screma_has_the_derivatives_of_its_split() {
    same_derivatives(&flat_fun(fused), &flat_fun(separate), 11);
}

#[test]
fn screma_in_a_map_has_the_derivatives_of_its_split() {
    same_derivatives(&nested_fun(fused), &nested_fun(separate), 12);
}

#[test]
fn screma_derivatives_are_right() {
    for f in [flat_fun(fused), nested_fun(fused)] {
        check_jvp_fd(&f, 13, 3);
        check_dot(&f, 14, 3);
    }
}
