//! Reverse mode on straight-line scalar code.

mod rev_util;
use parad_core::*;
use rev_util::*;

#[test]
fn product_and_abs_example() {
    // f(x1, x2) = |x1·x2| + 2·x1²; ∇f(3, -2) = (14, -3), f = 24.
    let f = |b: &mut Builder, p: &[VName]| {
        let v1 = b.mul(p[0], p[1]);
        let v2 = b.unop(UnOp::Abs, v1);
        let sq = b.mul(p[0], p[0]);
        let t = b.mul(Operand::f64(2.0), sq);
        vec![b.add(v2, t).into()]
    };
    let r = vjp(
        &[f64t(), f64t()],
        &f,
        vec![f64v(3.0), f64v(-2.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64v(24.0), f64v(14.0), f64v(-3.0)]);
}

#[test]
fn seed_scales_the_gradient_and_unused_inputs_get_zero() {
    let f = |b: &mut Builder, p: &[VName]| {
        let s = b.unop(UnOp::Sin, p[0]);
        vec![b.mul(s, p[0]).into()]
    };
    let x = 0.7f64;
    let r = grad(
        &[f64t(), f64t()],
        &f,
        vec![f64v(x), f64v(5.0)],
        vec![f64v(3.0)],
    );
    let expect = 3.0 * (x.cos() * x + x.sin());
    assert_close(&floats(&r[0]), &[expect], 1e-14, "x̄");
    assert_eq!(r[1], f64v(0.0));
}

/// As in Futhark, an integer parameter gets an adjoint: the float
/// adjoint of its conversion, converted back (2.6·1 truncated to 2).
#[test]
fn integer_parameters_get_adjoints_through_conversions() {
    let f = |b: &mut Builder, p: &[VName]| {
        let c = b.cast(F64T, p[1]);
        vec![b.mul(p[0], c).into()]
    };
    let r = grad(
        &[f64t(), Type::Prim(I64T)],
        &f,
        vec![f64v(2.6), i64v(7)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64v(7.0), i64v(2)]);
}

#[test]
fn variable_used_many_times_sums_contributions() {
    // y = x·x·x + x  ⇒  3x² + 1
    let f = |b: &mut Builder, p: &[VName]| {
        let a = b.mul(p[0], p[0]);
        let c = b.mul(a, p[0]);
        vec![b.add(c, p[0]).into()]
    };
    let r = grad(&[f64t()], &f, vec![f64v(2.0)], vec![f64v(1.0)]);
    assert_eq!(r, vec![f64v(13.0)]);
}

#[test]
fn several_results_and_results_that_are_parameters() {
    // (x·y, x): x̄ = ȳ0·y + ȳ1, ȳ = ȳ0·x
    let f = |b: &mut Builder, p: &[VName]| vec![b.mul(p[0], p[1]).into(), p[0].into()];
    let r = grad(
        &[f64t(), f64t()],
        &f,
        vec![f64v(3.0), f64v(4.0)],
        vec![f64v(2.0), f64v(10.0)],
    );
    assert_eq!(r, vec![f64v(18.0), f64v(6.0)]);
}

/// Every float unary operator against finite differences, at points of
/// its domain (including a negative argument of lgamma, which takes the
/// reflection branch of digamma).
#[test]
fn unary_operators_match_finite_differences() {
    use UnOp::*;
    let cases: &[(UnOp, &[f64])] = &[
        (Neg, &[1.3]),
        (Abs, &[-1.3, 2.0]),
        (Sqrt, &[2.3]),
        (Rsqrt, &[2.3]),
        (Cbrt, &[-2.3, 0.4]),
        (Exp, &[0.8]),
        (Expm1, &[0.3]),
        (Log, &[2.5]),
        (Log2, &[2.5]),
        (Log10, &[2.5]),
        (Log1p, &[0.5]),
        (Sin, &[0.8]),
        (Cos, &[0.8]),
        (Tan, &[0.8]),
        (SinPi, &[0.3]),
        (CosPi, &[0.3]),
        (TanPi, &[0.2]),
        (Asin, &[0.4]),
        (Acos, &[0.4]),
        (Atan, &[1.4]),
        (AsinPi, &[0.4]),
        (AcosPi, &[-0.4]),
        (AtanPi, &[1.4]),
        (Sinh, &[0.7]),
        (Cosh, &[0.7]),
        (Tanh, &[0.7]),
        (Asinh, &[0.7]),
        (Acosh, &[1.7]),
        (Atanh, &[0.3]),
        (Gamma, &[2.7, 0.3, -1.4]),
        (Lgamma, &[2.7, 0.3, 11.0, -1.4, -0.2]),
        (Erf, &[0.6]),
        (Erfc, &[0.6]),
        (Floor, &[1.3]),
    ];
    for &(op, xs) in cases {
        for &x in xs {
            let f = move |b: &mut Builder, p: &[VName]| vec![b.unop(op, p[0]).into()];
            check_fd(&[f64t()], &f, vec![f64v(x)], vec![f64v(1.0)], 1e-6);
        }
    }
}

#[test]
fn binary_and_ternary_operators_match_finite_differences() {
    use BinOp::*;
    let cases: &[(BinOp, f64, f64)] = &[
        (Add, 1.5, -2.0),
        (Sub, 1.5, -2.0),
        (Mul, 1.5, -2.0),
        (Div, 1.5, -2.0),
        (Mod, 5.5, 2.0),
        (Pow, 1.5, 2.5),
        (Min, 1.5, -2.0),
        (Max, 1.5, -2.0),
        (Atan2, 1.5, -2.0),
        (Atan2Pi, 1.5, 2.0),
        (Hypot, 1.5, -2.0),
        (CopySign, 1.5, -2.0),
    ];
    for &(op, x, y) in cases {
        let f = move |b: &mut Builder, p: &[VName]| vec![b.binop(op, p[0], p[1]).into()];
        check_fd(
            &[f64t(), f64t()],
            &f,
            vec![f64v(x), f64v(y)],
            vec![f64v(1.0)],
            1e-6,
        );
    }
    for op in [TernOp::Fma, TernOp::Mad, TernOp::Lerp] {
        let f = move |b: &mut Builder, p: &[VName]| vec![b.ternop(op, p[0], p[1], p[2]).into()];
        check_fd(
            &[f64t(), f64t(), f64t()],
            &f,
            vec![f64v(1.5), f64v(-2.0), f64v(0.3)],
            vec![f64v(1.0)],
            1e-6,
        );
    }
}

#[test]
fn pow_at_zero_base_has_zero_exponent_derivative() {
    let f = |b: &mut Builder, p: &[VName]| vec![b.binop(BinOp::Pow, p[0], p[1]).into()];
    let r = grad(
        &[f64t(), f64t()],
        &f,
        vec![f64v(0.0), f64v(2.0)],
        vec![f64v(1.0)],
    );
    assert_eq!(r, vec![f64v(0.0), f64v(0.0)]);
}

#[test]
fn min_max_ties_go_to_the_left_operand() {
    for op in [BinOp::Min, BinOp::Max] {
        let f = move |b: &mut Builder, p: &[VName]| vec![b.binop(op, p[0], p[1]).into()];
        let r = grad(
            &[f64t(), f64t()],
            &f,
            vec![f64v(2.0), f64v(2.0)],
            vec![f64v(1.0)],
        );
        assert_eq!(r, vec![f64v(1.0), f64v(0.0)]);
    }
}

#[test]
fn casts_between_float_types() {
    // y = f64(f32(x)·f32(x))
    let f = |b: &mut Builder, p: &[VName]| {
        let s = b.cast(F32T, p[0]);
        let q = b.mul(s, s);
        vec![b.cast(F64T, q).into()]
    };
    let r = grad(&[f64t()], &f, vec![f64v(1.5)], vec![f64v(2.0)]);
    assert_eq!(r, vec![f64v(6.0)]);
}

#[test]
fn comparisons_and_integer_code_pass_no_adjoint() {
    // if x > 0 then 2x else -x (via a select on a comparison)
    let f = |b: &mut Builder, p: &[VName]| {
        let pos = b.cmp(CmpOp::Gt, p[0], Operand::f64(0.0));
        let two_x = b.mul(p[0], Operand::f64(2.0));
        let neg = b.neg(p[0]);
        let r = b.if_(pos, |_| vec![two_x.into()], |_| vec![neg.into()]);
        vec![r[0].into()]
    };
    assert_eq!(
        grad(&[f64t()], &f, vec![f64v(3.0)], vec![f64v(1.0)]),
        vec![f64v(2.0)]
    );
    assert_eq!(
        grad(&[f64t()], &f, vec![f64v(-3.0)], vec![f64v(1.0)]),
        vec![f64v(-1.0)]
    );
}
