//! Property tests: text and binary round trips for every element type and
//! ranks 0 to 3 (empty arrays included), and no panics on arbitrary input.

use half::f16;
use parad_base::PrimType;
use parad_values::{read_values, to_text, write_binary, ArrayData, ArrayValue, Value};
use proptest::prelude::*;

fn data_strategy(t: PrimType, n: usize) -> BoxedStrategy<ArrayData> {
    use parad_base::{FloatType as F, IntType as I};
    macro_rules! v {
        ($s:expr) => {
            proptest::collection::vec($s, n)
        };
    }
    match t {
        PrimType::Int(I::I8) => v!(any::<i8>()).prop_map(ArrayData::I8).boxed(),
        PrimType::Int(I::I16) => v!(any::<i16>()).prop_map(ArrayData::I16).boxed(),
        PrimType::Int(I::I32) => v!(any::<i32>()).prop_map(ArrayData::I32).boxed(),
        PrimType::Int(I::I64) => v!(any::<i64>()).prop_map(ArrayData::I64).boxed(),
        PrimType::Int(I::U8) => v!(any::<u8>()).prop_map(ArrayData::U8).boxed(),
        PrimType::Int(I::U16) => v!(any::<u16>()).prop_map(ArrayData::U16).boxed(),
        PrimType::Int(I::U32) => v!(any::<u32>()).prop_map(ArrayData::U32).boxed(),
        PrimType::Int(I::U64) => v!(any::<u64>()).prop_map(ArrayData::U64).boxed(),
        // Arbitrary bit patterns cover NaN, infinities, -0 and subnormals.
        PrimType::Float(F::F16) => v!(any::<u16>().prop_map(f16::from_bits))
            .prop_map(ArrayData::F16)
            .boxed(),
        PrimType::Float(F::F32) => v!(any::<u32>().prop_map(f32::from_bits))
            .prop_map(ArrayData::F32)
            .boxed(),
        PrimType::Float(F::F64) => v!(any::<u64>().prop_map(f64::from_bits))
            .prop_map(ArrayData::F64)
            .boxed(),
        PrimType::Bool => v!(any::<bool>()).prop_map(ArrayData::Bool).boxed(),
    }
}

fn value_strategy() -> impl Strategy<Value = Value> {
    let types: Vec<PrimType> = PrimType::all().collect();
    (
        proptest::sample::select(types),
        proptest::collection::vec(0usize..4, 0..=3),
    )
        .prop_flat_map(|(t, shape)| {
            let n = shape.iter().product();
            data_strategy(t, n).prop_map(move |data| {
                if shape.is_empty() {
                    Value::Scalar(data.get(0).unwrap())
                } else {
                    Value::Array(ArrayValue::new(shape.clone(), data).unwrap())
                }
            })
        })
}

/// Equality where NaNs match any NaN (text does not keep NaN payloads)
/// and everything else must match bit for bit.
fn same(a: &Value, b: &Value) -> bool {
    if a.shape() != b.shape() || a.elem_type() != b.elem_type() {
        return false;
    }
    let (da, db) = match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => {
            let mut da = ArrayData::empty(a.elem_type());
            let mut db = ArrayData::empty(b.elem_type());
            da.push(*x);
            db.push(*y);
            (da, db)
        }
        (Value::Array(x), Value::Array(y)) => (x.data.clone(), y.data.clone()),
        _ => return false,
    };
    match (&da, &db) {
        (ArrayData::F16(x), ArrayData::F16(y)) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        (ArrayData::F32(x), ArrayData::F32(y)) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        (ArrayData::F64(x), ArrayData::F64(y)) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        _ => da == db,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn text_round_trip(v in value_strategy()) {
        let text = to_text(&v);
        let back = read_values(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back.len(), 1);
        prop_assert!(same(&v, &back[0]), "{} read back as {:?}", text, back[0]);
        // Printing is stable.
        prop_assert_eq!(to_text(&back[0]), text);
    }

    #[test]
    fn binary_round_trip(v in value_strategy()) {
        let mut bytes = Vec::new();
        write_binary(&v, &mut bytes);
        let back = read_values(&bytes).unwrap();
        prop_assert_eq!(back.len(), 1);
        // Binary keeps every bit, NaN payloads included.
        let mut again = Vec::new();
        write_binary(&back[0], &mut again);
        prop_assert_eq!(&again, &bytes);
        prop_assert!(same(&v, &back[0]));
    }

    #[test]
    fn mixed_sequences_round_trip(vs in proptest::collection::vec((value_strategy(), any::<bool>()), 0..6)) {
        let mut input = Vec::new();
        for (v, binary) in &vs {
            if *binary {
                write_binary(v, &mut input);
            } else {
                input.extend_from_slice(to_text(v).as_bytes());
                input.extend_from_slice(b" -- comment\n");
            }
        }
        let back = read_values(&input).unwrap();
        prop_assert_eq!(back.len(), vs.len());
        for ((v, _), b) in vs.iter().zip(&back) {
            prop_assert!(same(v, b));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = read_values(&bytes);
    }

    #[test]
    fn value_like_text_never_panics(s in "[\\[\\]0-9a-z_.,'\"\\\\ \n()xXpPeE+-]{0,80}") {
        let _ = read_values(s.as_bytes());
    }

    #[test]
    fn corrupted_binary_never_panics(v in value_strategy(), cut in any::<prop::sample::Index>(), flip in any::<(prop::sample::Index, u8)>()) {
        let mut bytes = Vec::new();
        write_binary(&v, &mut bytes);
        let mut flipped = bytes.clone();
        let i = flip.0.index(flipped.len());
        flipped[i] ^= flip.1;
        let _ = read_values(&flipped);
        bytes.truncate(cut.index(bytes.len()));
        prop_assert!(read_values(&bytes).is_err() || bytes.is_empty());
    }
}
