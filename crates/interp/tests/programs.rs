#[path = "../../core/tests/programs/mod.rs"]
mod programs;

use parad_core::check_program;
use parad_interp::{run, Interp};
use parad_values::{ArrayData, ArrayValue, Scalar, Value};
use programs::*;

fn f32s(xs: &[f32]) -> Value {
    Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::F32(xs.to_vec()),
    })
}
fn i64s(xs: &[i64]) -> Value {
    Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::I64(xs.to_vec()),
    })
}
fn i64(x: i64) -> Value {
    Value::Scalar(Scalar::I64(x))
}

#[test]
fn dot_product() {
    let p = dot();
    check_program(&p).unwrap();
    let r = run(
        &p,
        "main",
        vec![i64(3), f32s(&[1.0, 2.0, 3.0]), f32s(&[4.0, 5.0, 6.0])],
    )
    .unwrap();
    assert_eq!(r, vec![Value::Scalar(Scalar::F32(32.0))]);
}

#[test]
fn dot_product_of_empty_arrays() {
    let r = run(&dot(), "main", vec![i64(0), f32s(&[]), f32s(&[])]).unwrap();
    assert_eq!(r, vec![Value::Scalar(Scalar::F32(0.0))]);
}

#[test]
fn declared_sizes_are_checked() {
    let e = run(
        &dot(),
        "main",
        vec![i64(2), f32s(&[1.0, 2.0, 3.0]), f32s(&[4.0, 5.0, 6.0])],
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "Sizes do not match: value of shape [3] where shape [2] was expected"
    );
}

#[test]
fn map_of_reduce() {
    let m = Value::Array(ArrayValue {
        shape: vec![2, 3],
        data: ArrayData::I64(vec![1, 2, 3, 4, 5, 6]),
    });
    assert_eq!(
        run(&row_sums(), "main", vec![m]).unwrap(),
        vec![i64s(&[6, 15])]
    );
    let empty = Value::Array(ArrayValue {
        shape: vec![0, 3],
        data: ArrayData::I64(vec![]),
    });
    assert_eq!(
        run(&row_sums(), "main", vec![empty]).unwrap(),
        vec![i64s(&[])]
    );
}

#[test]
fn scan_with_tuple_operator() {
    // Affine maps x ↦ a*x + b composed left to right.
    let r = run(
        &affine_scan(),
        "main",
        vec![i64s(&[2, 3, 1, 5]), i64s(&[1, 0, 4, 2])],
    )
    .unwrap();
    assert_eq!(r, vec![i64s(&[2, 6, 6, 30]), i64s(&[1, 3, 7, 37])]);
}

#[test]
fn histogram_ignores_out_of_bounds_indices() {
    let r = run(
        &histogram(),
        "main",
        vec![
            i64(3),
            i64s(&[0, 2, 5, -1, 2, 0, 3]),
            f32s(&[1.0, 2.0, 100.0, 100.0, 3.0, 4.0, 100.0]),
        ],
    )
    .unwrap();
    assert_eq!(r, vec![f32s(&[5.0, 0.0, 5.0])]);
}

#[test]
fn scatter_ignores_out_of_bounds_indices() {
    let r = run(
        &scatter(),
        "main",
        vec![
            i64s(&[0, 0, 0, 0]),
            i64s(&[3, -1, 1, 4]),
            i64s(&[7, 8, 9, 10]),
        ],
    )
    .unwrap();
    assert_eq!(r, vec![i64s(&[0, 9, 0, 7])]);
}

#[test]
fn while_loop_and_if() {
    assert_eq!(
        run(&collatz(), "main", vec![i64(27)]).unwrap(),
        vec![i64(111)]
    );
    assert_eq!(run(&collatz(), "main", vec![i64(1)]).unwrap(), vec![i64(0)]);
}

#[test]
fn in_place_update_loop_makes_no_copies() {
    let p = squares_loop();
    let mut it = Interp::new(&p);
    let r = it.run_entry(&p, "main", vec![i64(2000)]).unwrap();
    let Value::Array(a) = &r[0] else { panic!() };
    assert_eq!(a.data.get(1999), Some(Scalar::I64(1999 * 1999)));
    assert_eq!(it.copy_count(), 0);
}

#[test]
fn scatter_into_argument_copies_once() {
    // `scatter` copies `dest` explicitly once and then writes in place.
    let p = scatter();
    let mut it = Interp::new(&p);
    it.run_entry(
        &p,
        "main",
        vec![i64s(&[0; 100]), i64s(&[1, 2]), i64s(&[5, 6])],
    )
    .unwrap();
    assert_eq!(it.copy_count(), 1);
}

#[test]
fn wrong_entry_arguments() {
    let e = run(&dot(), "main", vec![i64(3)]).unwrap_err();
    assert_eq!(e.message, "entry point main expects 3 arguments but got 1");
    let e = run(&dot(), "main", vec![i64(1), i64s(&[1]), f32s(&[1.0])]).unwrap_err();
    assert_eq!(
        e.message,
        "argument 2 of entry point main has type [1]i64 but []f32 was expected"
    );
    assert!(run(&dot(), "nope", vec![]).is_err());
}
