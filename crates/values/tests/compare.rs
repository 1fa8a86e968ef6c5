//! Comparison of expected and actual values.

use half::f16;
use parad_values::{compare, compare_all, compare_with, read_values, Tolerance, Value};

fn v(src: &str) -> Value {
    read_values(src.as_bytes()).unwrap().remove(0)
}

fn cmp(e: &str, a: &str) -> Result<(), String> {
    compare(&v(e), &v(a)).map_err(|m| m.to_string())
}

#[test]
fn equal_values_match() {
    assert_eq!(cmp("[1, 2, 3]", "[1, 2, 3]"), Ok(()));
    assert_eq!(cmp("true", "true"), Ok(()));
    assert_eq!(cmp("empty([0][2]f32)", "empty([0][2]f32)"), Ok(()));
}

#[test]
fn integers_are_exact() {
    assert_eq!(
        cmp("[[1, 2], [3, 4]]", "[[1, 2], [3, 5]]"),
        Err("at index [1, 1]: expected 4i32, got 5i32; 1 of 4 elements differ".into())
    );
    assert_eq!(cmp("7u8", "8u8"), Err("expected 7u8, got 8u8".into()));
    assert_eq!(
        cmp("[true, false, true]", "[false, false, false]"),
        Err("at index [0]: expected true, got false; 2 of 3 elements differ".into())
    );
}

#[test]
fn nan_and_infinities() {
    assert_eq!(cmp("f32.nan", "f32.nan"), Ok(()));
    assert_eq!(cmp("[f64.inf, -f64.inf]", "[f64.inf, -f64.inf]"), Ok(()));
    assert!(cmp("f64.inf", "-f64.inf").is_err());
    assert!(cmp("f64.nan", "1.0").is_err());
    assert!(cmp("1.0", "f64.nan").is_err());
    assert!(cmp("1.0", "f64.inf").is_err());
    assert!(cmp("f64.inf", "1e308").is_err());
    assert_eq!(cmp("0.0f32", "-0.0f32"), Ok(()));
    assert_eq!(cmp("f16.nan", "f16.nan"), Ok(()));
}

#[test]
fn tolerance_scales_with_the_largest_expected_element() {
    // Small values: absolute tolerance 0.002.
    assert_eq!(cmp("0.0", "0.0015"), Ok(()));
    assert!(cmp("0.0", "0.0025").is_err());
    // Large values: 0.2% of the largest expected magnitude.
    assert_eq!(cmp("1000.0f32", "1001.5f32"), Ok(()));
    assert!(cmp("1000.0f32", "1002.5f32").is_err());
    // The whole array shares one tolerance: 0.2% of 1000 = 2.
    assert_eq!(cmp("[1000.0, 0.0]", "[1000.0, 1.9]"), Ok(()));
    assert!(cmp("[1000.0, 0.0]", "[1000.0, 2.1]").is_err());
    // Negative magnitudes count too.
    assert_eq!(cmp("[-1000.0, 0.0]", "[-1000.0, 1.9]"), Ok(()));
    // Infinite expected elements do not widen the tolerance.
    assert!(cmp("[f64.inf, 0.0]", "[f64.inf, 1.0]").is_err());
}

#[test]
fn exact_tolerance() {
    let (a, b) = (v("1.0"), v("1.0000001"));
    assert!(compare_with(&a, &b, Tolerance::EXACT).is_err());
    assert!(compare_with(&a, &a, Tolerance::EXACT).is_ok());
    assert!(compare_with(&v("f32.nan"), &v("f32.nan"), Tolerance::EXACT).is_ok());
    assert!(compare_with(&a, &b, Tolerance { rel: 1e-6 }).is_ok());
}

#[test]
fn float_mismatch_message() {
    let e = cmp(
        "[[1.0f32, 2.0f32], [3.0f32, 4.0f32]]",
        "[[1.0f32, 2.0f32], [3.5f32, 4.5f32]]",
    )
    .unwrap_err();
    assert_eq!(
        e,
        "at index [1, 0]: expected 3.0f32, got 3.5f32 (tolerance 8e-3); 2 of 4 elements differ"
    );
    let h = |x: f32| Value::Scalar(parad_values::Scalar::F16(f16::from_f32(x)));
    assert!(compare(&h(1.0), &h(1.001)).is_ok());
    assert!(compare(&h(1.0), &h(1.5)).is_err());
}

#[test]
fn shape_and_type_mismatches() {
    assert_eq!(
        cmp("[[1, 2, 3], [4, 5, 6]]", "[[1, 2], [3, 4], [5, 6]]"),
        Err("expected an array of type [2][3]i32, got [3][2]i32".into())
    );
    assert_eq!(
        cmp("[1, 2]", "[1i64, 2i64]"),
        Err("expected a value of type [2]i32, got [2]i64".into())
    );
    assert_eq!(
        cmp("[1, 2]", "1"),
        Err("expected a value of type [2]i32, got i32".into())
    );
    assert_eq!(
        cmp("empty([0]f32)", "[1.0f32]"),
        Err("expected an array of type [0]f32, got [1]f32".into())
    );
}

#[test]
fn sequences_of_values() {
    let e = read_values(b"1 [2, 3]").unwrap();
    let a = read_values(b"1 [2, 4]").unwrap();
    assert_eq!(
        compare_all(&e, &a, Tolerance::default())
            .unwrap_err()
            .to_string(),
        "value #1: at index [1]: expected 3i32, got 4i32; 1 of 2 elements differ"
    );
    assert_eq!(
        compare_all(&e, &a[..1], Tolerance::default())
            .unwrap_err()
            .to_string(),
        "expected 2 values, got 1"
    );
    assert!(compare_all(&e, &e, Tolerance::default()).is_ok());
}
