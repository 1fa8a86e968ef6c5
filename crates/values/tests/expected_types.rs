//! Reading text values as the arguments of an entry point: literals
//! without a type suffix take the parameter's type when they fit.

use parad_base::{FloatType, IntType, PrimType};
use parad_values::{read_file_as, read_values_as, ArrayData, ArrayValue, Scalar, Value, ValueType};

const I8: PrimType = PrimType::Int(IntType::I8);
const U8: PrimType = PrimType::Int(IntType::U8);
const I64: PrimType = PrimType::Int(IntType::I64);
const U64: PrimType = PrimType::Int(IntType::U64);
const F32: PrimType = PrimType::Float(FloatType::F32);
const F64: PrimType = PrimType::Float(FloatType::F64);

fn ty(rank: usize, elem: PrimType) -> ValueType {
    ValueType { rank, elem }
}

fn read(src: &str, types: &[ValueType]) -> Vec<Value> {
    read_values_as(src.as_bytes(), types).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn err(src: &str, types: &[ValueType]) -> String {
    match read_values_as(src.as_bytes(), types) {
        Ok(v) => panic!("{src}: expected an error, read {v:?}"),
        Err(e) => e.to_string(),
    }
}

fn arr(shape: &[usize], data: ArrayData) -> Value {
    Value::Array(ArrayValue::new(shape.to_vec(), data).unwrap())
}

#[test]
fn unsuffixed_scalars_take_the_parameter_type() {
    let vs = read(
        "49 2 -3 7 0x10 1.5 2e3",
        &[
            ty(0, I64),
            ty(0, F64),
            ty(0, I8),
            ty(0, F32),
            ty(0, U8),
            ty(0, F64),
            ty(0, F32),
        ],
    );
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I64(49)),
            Value::Scalar(Scalar::F64(2.0)),
            Value::Scalar(Scalar::I8(-3)),
            Value::Scalar(Scalar::F32(7.0)),
            Value::Scalar(Scalar::U8(16)),
            Value::Scalar(Scalar::F64(1.5)),
            Value::Scalar(Scalar::F32(2000.0)),
        ]
    );
}

#[test]
fn unsuffixed_array_elements_take_the_parameter_type() {
    let vs = read(
        "[1, 2] [[1, -2], [3, 4.5]] [255, 0]",
        &[ty(1, F32), ty(2, F64), ty(1, U8)],
    );
    assert_eq!(
        vs,
        vec![
            arr(&[2], ArrayData::F32(vec![1.0, 2.0])),
            arr(&[2, 2], ArrayData::F64(vec![1.0, -2.0, 3.0, 4.5])),
            arr(&[2], ArrayData::U8(vec![255, 0])),
        ]
    );
}

#[test]
fn the_extremes_of_each_integer_type_fit() {
    let vs = read(
        "-128 127 18446744073709551615 -9223372036854775808",
        &[ty(0, I8), ty(0, I8), ty(0, U64), ty(0, I64)],
    );
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I8(-128)),
            Value::Scalar(Scalar::I8(127)),
            Value::Scalar(Scalar::U64(u64::MAX)),
            Value::Scalar(Scalar::I64(i64::MIN)),
        ]
    );
}

#[test]
fn literals_that_do_not_fit_are_located_errors() {
    let e = err("1i64\n  300", &[ty(0, I64), ty(0, U8)]);
    assert!(
        e.contains("line 2, column 3") && e.contains("300 does not fit in the expected type u8"),
        "{e}"
    );
    let e = err("-1", &[ty(0, U8)]);
    assert!(
        e.contains("line 1, column 1") && e.contains("-1 does not fit in the expected type u8"),
        "{e}"
    );
    let e = err("128", &[ty(0, I8)]);
    assert!(
        e.contains("128 does not fit in the expected type i8"),
        "{e}"
    );
    let e = err("99999999999999999999", &[ty(0, I64)]);
    assert!(e.contains("does not fit in the expected type i64"), "{e}");
    let e = err("1.5", &[ty(0, I64)]);
    assert!(
        e.contains("line 1, column 1")
            && e.contains("expected a value of type i64, found a floating-point"),
        "{e}"
    );
    let e = err("[1, 2, 256]", &[ty(1, U8)]);
    assert!(
        e.contains("line 1, column 8") && e.contains("256 does not fit in the expected type u8"),
        "{e}"
    );
    let e = err("[1, 2.5]", &[ty(1, I64)]);
    assert!(
        e.contains("line 1, column 5") && e.contains("found a floating-point literal"),
        "{e}"
    );
}

#[test]
fn suffixed_literals_keep_their_type() {
    // A mismatch with the parameter is left to the caller to report.
    let vs = read(
        "3i32 [1f32, 2] 2.5f64 300u16",
        &[ty(0, I64), ty(1, F64), ty(0, F32), ty(0, U8)],
    );
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I32(3)),
            arr(&[2], ArrayData::F32(vec![1.0, 2.0])),
            Value::Scalar(Scalar::F64(2.5)),
            Value::Scalar(Scalar::U16(300)),
        ]
    );
    // An unsuffixed element after a suffixed first one has the first's type.
    let vs = read("[1i32, 2]", &[ty(1, F64)]);
    assert_eq!(vs, vec![arr(&[2], ArrayData::I32(vec![1, 2]))]);
}

#[test]
fn values_without_an_expected_type_keep_the_defaults() {
    // Past the parameters, for a rank that differs, or for booleans.
    let vs = read("1 2 [3] true", &[ty(0, F64)]);
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::F64(1.0)),
            Value::Scalar(Scalar::I32(2)),
            arr(&[1], ArrayData::I32(vec![3])),
            Value::Scalar(Scalar::Bool(true)),
        ]
    );
    let vs = read("[1, 2] 3", &[ty(0, F64), ty(1, F64)]);
    assert_eq!(
        vs,
        vec![
            arr(&[2], ArrayData::I32(vec![1, 2])),
            Value::Scalar(Scalar::I32(3))
        ]
    );
    // Empty arrays and binary values carry their own types.
    let vs = read("empty([0]i32)", &[ty(1, F64)]);
    assert_eq!(vs, vec![arr(&[0], ArrayData::I32(vec![]))]);
}

#[test]
fn files_are_read_with_the_expected_types() {
    let p = std::env::temp_dir().join(format!("parad-values-{}-in.txt", std::process::id()));
    std::fs::write(&p, "2 [1, 2]\n").unwrap();
    let vs = read_file_as(&p, &[ty(0, F64), ty(1, I64)]).unwrap();
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::F64(2.0)),
            arr(&[2], ArrayData::I64(vec![1, 2]))
        ]
    );
    std::fs::write(&p, "2\n-7").unwrap();
    let e = read_file_as(&p, &[ty(0, F64), ty(0, U64)])
        .unwrap_err()
        .to_string();
    let _ = std::fs::remove_file(&p);
    assert!(
        e.contains("in.txt") && e.contains("line 2, column 1"),
        "{e}"
    );
}
