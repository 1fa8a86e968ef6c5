//! Forward-mode rules of scalar operators: exact values for a few, and
//! finite differences for every floating-point operator.

mod harness;

use harness::*;
use parad_base::{FloatType, IntType, PrimType};
use parad_core::*;

const F32: PrimType = PrimType::Float(FloatType::F32);
const F64: PrimType = PrimType::Float(FloatType::F64);

fn unary(op: UnOp) -> Fun {
    Fun::new(&[&[]], move |b, x| vec![b.unop(op, x[0]).into()])
}

fn in_range(mut f: Fun, lo: f64, hi: f64) -> Fun {
    f.lo = lo;
    f.hi = hi;
    f
}

#[test]
fn running_example_of_seed_001() {
    // P(x0, x1) = (x1·sin x0, x0·x1).
    let f = Fun::new(&[&[], &[]], |b, x| {
        let s = b.unop(UnOp::Sin, x[0]);
        let y0 = b.mul(x[1], s);
        let y1 = b.mul(x[0], x[1]);
        vec![y0.into(), y1.into()]
    });
    let (x0, x1) = (0.7f64, -1.3f64);
    let (ys, ts) = jvp_at(
        &f,
        vec![scalar(x0), scalar(x1)],
        vec![scalar(1.0), scalar(0.0)],
    );
    assert_close(&flat(&ys[0]), &[x1 * x0.sin()], 1e-15, "y0");
    assert_close(&flat(&ts[0]), &[x1 * x0.cos()], 1e-15, "dy0/dx0");
    assert_close(&flat(&ts[1]), &[x1], 1e-15, "dy1/dx0");
    let (_, ts) = jvp_at(
        &f,
        vec![scalar(x0), scalar(x1)],
        vec![scalar(0.0), scalar(1.0)],
    );
    assert_close(&flat(&ts[0]), &[x0.sin()], 1e-15, "dy0/dx1");
    assert_close(&flat(&ts[1]), &[x0], 1e-15, "dy1/dx1");
}

#[test]
fn exact_unary_derivatives() {
    let cases: &[(UnOp, f64, f64)] = &[
        (UnOp::Exp, 0.5, 0.5f64.exp()),
        (UnOp::Log, 2.0, 0.5),
        (UnOp::Sqrt, 4.0, 0.25),
        (UnOp::Neg, 3.0, -1.0),
        (UnOp::Abs, -3.0, -1.0),
        (UnOp::Floor, 2.5, 0.0),
        (UnOp::Tanh, 0.0, 1.0),
        // ψ(1) = -γ.
        (UnOp::Lgamma, 1.0, -0.577_215_664_901_532_9),
        // Γ'(2) = Γ(2)·ψ(2) = 1 - γ.
        (UnOp::Gamma, 2.0, 1.0 - 0.577_215_664_901_532_9),
        (UnOp::Erf, 0.0, 2.0 / std::f64::consts::PI.sqrt()),
    ];
    for &(op, x, d) in cases {
        let (_, ts) = jvp_at(&unary(op), vec![scalar(x)], vec![scalar(1.0)]);
        assert_close(&flat(&ts[0]), &[d], 1e-12, &format!("{op}'({x})"));
    }
}

#[test]
fn digamma_through_lgamma_matches_known_values() {
    // ψ(x) at points taking each path: reflection, recurrence, series.
    let cases = [
        (0.5, -1.963_510_026_021_423_5),
        (-0.5, 0.036_489_973_978_576_52),
        (10.0, 2.251_752_589_066_721),
        (3.0, 0.922_784_335_098_467_1),
    ];
    for (x, psi) in cases {
        let (_, ts) = jvp_at(&unary(UnOp::Lgamma), vec![scalar(x)], vec![scalar(1.0)]);
        assert_close(&flat(&ts[0]), &[psi], 1e-11, &format!("digamma({x})"));
    }
}

#[test]
fn every_unary_operator_against_finite_differences() {
    use UnOp::*;
    let everywhere = [
        Neg, Abs, Signum, Exp, Expm1, Sin, Cos, Tan, SinPi, CosPi, Atan, AtanPi, Sinh, Cosh, Tanh,
        Asinh, Erf, Erfc, Ceil, Floor, Trunc, Round, Cbrt,
    ];
    for op in everywhere {
        check_jvp_fd(&unary(op), 1, 4);
    }
    for op in [Sqrt, Rsqrt, Log, Log2, Log10, Log1p, Lgamma, Gamma] {
        check_jvp_fd(&unary(op).positive(), 2, 4);
    }
    for op in [Asin, Acos, AsinPi, AcosPi, Atanh] {
        check_jvp_fd(&in_range(unary(op), -0.9, 0.9), 3, 4);
    }
    check_jvp_fd(&in_range(unary(Acosh), 1.5, 3.0), 4, 4);
    check_jvp_fd(&in_range(unary(TanPi), -0.4, 0.4), 5, 4);
    for op in [Lgamma, Gamma] {
        check_jvp_fd(&in_range(unary(op), -0.9, -0.1), 6, 4);
        check_jvp_fd(&in_range(unary(op), 7.0, 20.0), 7, 4);
    }
}

fn binary(op: BinOp) -> Fun {
    Fun::new(&[&[], &[]], move |b, x| {
        vec![b.binop(op, x[0], x[1]).into()]
    })
}

#[test]
fn every_binary_operator_against_finite_differences() {
    use BinOp::*;
    for op in [
        Add, Sub, Mul, Div, Min, Max, Atan2, Atan2Pi, Hypot, CopySign, NextAfter,
    ] {
        check_jvp_fd(&binary(op), 10, 6);
    }
    for op in [Pow, Mod] {
        check_jvp_fd(&binary(op).positive(), 11, 6);
    }
    let ldexp = Fun::new(&[&[]], |b, x| {
        vec![b.binop(Ldexp, x[0], Operand::i32(3)).into()]
    });
    check_jvp_fd(&ldexp, 12, 2);
}

#[test]
fn pow_at_zero_base_has_finite_tangents() {
    // d(x^y) at x = 0, y = 2 is 0 in both directions (no 0·∞).
    let (ys, ts) = jvp_at(
        &binary(BinOp::Pow),
        vec![scalar(0.0), scalar(2.0)],
        vec![scalar(1.0), scalar(1.0)],
    );
    assert_eq!(flat(&ys[0]), vec![0.0]);
    assert_eq!(flat(&ts[0]), vec![0.0]);
}

#[test]
fn min_and_max_follow_the_selected_operand() {
    let (_, ts) = jvp_at(
        &binary(BinOp::Min),
        vec![scalar(1.0), scalar(2.0)],
        vec![scalar(10.0), scalar(20.0)],
    );
    assert_eq!(flat(&ts[0]), vec![10.0]);
    let (_, ts) = jvp_at(
        &binary(BinOp::Max),
        vec![scalar(1.0), scalar(2.0)],
        vec![scalar(10.0), scalar(20.0)],
    );
    assert_eq!(flat(&ts[0]), vec![20.0]);
}

#[test]
fn ternary_operators_against_finite_differences() {
    for op in [TernOp::Fma, TernOp::Mad, TernOp::Lerp] {
        let f = Fun::new(&[&[], &[], &[]], move |b, x| {
            vec![b.ternop(op, x[0], x[1], x[2]).into()]
        });
        check_jvp_fd(&f, 20, 4);
    }
}

#[test]
fn casts_between_float_types_carry_the_tangent_and_integers_have_none() {
    // f(x) = f64(f32(x)·2) + f64(i64(x)): tangent 2·ẋ (rounded to f32).
    let f = Fun::new(&[&[]], |b, x| {
        let s = b.cast(F32, x[0]);
        let d = b.mul(s, Operand::f32(2.0));
        let back = b.cast(F64, d);
        let i = b.cast(PrimType::Int(IntType::I64), x[0]);
        let fi = b.cast(F64, i);
        vec![b.add(back, fi).into()]
    });
    let (_, ts) = jvp_at(&f, vec![scalar(2.5)], vec![scalar(0.25)]);
    assert_eq!(flat(&ts[0]), vec![0.5]);
}

#[test]
fn conversions_carry_the_tangent_and_comparisons_have_none() {
    // As in Futhark: the tangent of a conversion is the converted tangent
    // (here 1.75 truncated to 1), a comparison's tangent is zero.
    let f = Fun::new(&[&[]], |b, x| {
        let i = b.cast(PrimType::Int(IntType::I64), x[0]);
        let c = b.cmp(CmpOp::Lt, x[0], c(0.0));
        let ci = b.cast(PrimType::Int(IntType::I64), c);
        vec![i.into(), ci.into()]
    });
    let (ys, ts) = jvp_at(&f, vec![scalar(-2.5)], vec![scalar(1.75)]);
    assert_eq!(flat(&ys[0]), vec![-2.0]);
    assert_eq!(ts.len(), 2);
    assert!(matches!(
        ts[0],
        parad_values::Value::Scalar(parad_values::Scalar::I64(1))
    ));
    assert!(matches!(
        ts[1],
        parad_values::Value::Scalar(parad_values::Scalar::I64(0))
    ));
}

#[test]
fn constant_functions_and_unused_parameters_have_zero_tangents() {
    let f = Fun::new(&[&[], &[3]], |_, _| vec![c(4.0)]);
    let (ys, ts) = jvp_at(
        &f,
        vec![scalar(1.0), f64s(&[1.0, 2.0, 3.0])],
        vec![scalar(1.0), f64s(&[1.0, 1.0, 1.0])],
    );
    assert_eq!(flat(&ys[0]), vec![4.0]);
    assert_eq!(flat(&ts[0]), vec![0.0]);
}
