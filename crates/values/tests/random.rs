//! Parsing value types and generating random values.

use parad_base::{FloatType, IntType, PrimType};
use parad_values::random::RANDOM_INT_BOUND;
use parad_values::{parse_value_type, random_value, ArrayData, Value};
use rand::SeedableRng;

#[test]
fn value_types() {
    assert_eq!(
        parse_value_type("[100][3]f32").unwrap(),
        (vec![100, 3], PrimType::Float(FloatType::F32))
    );
    assert_eq!(
        parse_value_type(" i64 ").unwrap(),
        (vec![], PrimType::Int(IntType::I64))
    );
    assert_eq!(
        parse_value_type("[0]bool").unwrap(),
        (vec![0], PrimType::Bool)
    );
    assert_eq!(
        parse_value_type("[1_000]u8").unwrap(),
        (vec![1000], PrimType::Int(IntType::U8))
    );
    let e = |s: &str| parse_value_type(s).unwrap_err().to_string();
    assert_eq!(
        e("[3]f31"),
        "line 1, column 4: unknown primitive type 'f31'"
    );
    assert_eq!(
        e("[x]f32"),
        "line 1, column 2: expected an array size, found 'x'"
    );
    assert_eq!(
        e("[3 f32"),
        "line 1, column 4: expected ']' after array size, found 'f'"
    );
    assert_eq!(
        e("[3]"),
        "line 1, column 4: expected a primitive type, found end of input"
    );
    assert_eq!(
        e("i32 i32"),
        "line 1, column 5: unexpected text after the type"
    );
    assert!(e("[99999999999999999999999]i32").contains("too large"));
    assert_eq!(
        e("[4294967296][4294967296]i32"),
        "line 1, column 1: array type has too many elements"
    );
}

#[test]
fn random_values_have_the_requested_shape_and_range() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for t in PrimType::all() {
        for shape in [vec![], vec![5], vec![3, 4], vec![2, 0, 3]] {
            let v = random_value(&shape, t, &mut rng);
            assert_eq!(v.shape(), &shape[..]);
            assert_eq!(v.elem_type(), t);
            assert_eq!(matches!(v, Value::Scalar(_)), shape.is_empty());
        }
    }
    let n = 2000;
    let get = |t: PrimType, rng: &mut rand::rngs::StdRng| match random_value(&[n], t, rng) {
        Value::Array(a) => a.data,
        Value::Scalar(_) => unreachable!(),
    };
    match get(PrimType::Float(FloatType::F32), &mut rng) {
        ArrayData::F32(xs) => {
            assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
            // Not constant: both halves of [0, 1) occur.
            assert!(xs.iter().any(|&x| x < 0.5) && xs.iter().any(|&x| x >= 0.5));
        }
        _ => unreachable!(),
    }
    match get(PrimType::Float(FloatType::F16), &mut rng) {
        ArrayData::F16(xs) => assert!(xs.iter().all(|&x| (0.0..1.0).contains(&f32::from(x)))),
        _ => unreachable!(),
    }
    match get(PrimType::Int(IntType::I64), &mut rng) {
        ArrayData::I64(xs) => {
            assert!(xs
                .iter()
                .all(|&x| (0..RANDOM_INT_BOUND as i64).contains(&x)));
            assert!(xs.iter().any(|&x| x != xs[0]));
        }
        _ => unreachable!(),
    }
    match get(PrimType::Bool, &mut rng) {
        ArrayData::Bool(xs) => assert!(xs.iter().any(|&b| b) && xs.iter().any(|&b| !b)),
        _ => unreachable!(),
    }
}

#[test]
fn same_seed_same_values() {
    let t = PrimType::Float(FloatType::F64);
    let a = random_value(&[10], t, &mut rand::rngs::StdRng::seed_from_u64(1));
    let b = random_value(&[10], t, &mut rand::rngs::StdRng::seed_from_u64(1));
    assert_eq!(a, b);
}

#[test]
fn random_input_blocks() {
    use parad_values::{parse_gen_specs, GenSpec, Scalar};
    assert_eq!(
        parse_gen_specs(" [100][3]f32 10i64\n i32 2.5f32 ").unwrap(),
        vec![
            GenSpec::Random(vec![100, 3], PrimType::Float(FloatType::F32)),
            GenSpec::Fixed(Value::Scalar(Scalar::I64(10))),
            GenSpec::Random(vec![], PrimType::Int(IntType::I32)),
            GenSpec::Fixed(Value::Scalar(Scalar::F32(2.5))),
        ]
    );
    assert_eq!(parse_gen_specs("").unwrap(), vec![]);
    assert_eq!(
        parse_gen_specs("f32.inf").unwrap(),
        vec![GenSpec::Fixed(Value::Scalar(Scalar::F32(f32::INFINITY)))]
    );
    assert_eq!(
        parse_gen_specs("[10]i32\n  [5]q32")
            .unwrap_err()
            .to_string(),
        "line 2, column 6: unknown primitive type 'q32'"
    );
}
