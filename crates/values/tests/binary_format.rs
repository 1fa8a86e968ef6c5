//! The binary format, mixed input, gzip and files.

use std::io::Write;

use parad_values::{read_file, read_values, write_binary, ArrayData, ArrayValue, Scalar, Value};

fn arr(shape: &[usize], data: ArrayData) -> Value {
    Value::Array(ArrayValue::new(shape.to_vec(), data).unwrap())
}

fn bin(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_binary(v, &mut out);
    out
}

fn err(bytes: &[u8]) -> String {
    match read_values(bytes) {
        Ok(vs) => panic!("expected an error, got {vs:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn layout_matches_the_specification() {
    let v = arr(&[2, 1], ArrayData::I32(vec![1, -2]));
    let mut want = vec![b'b', 2, 2];
    want.extend_from_slice(b" i32");
    want.extend_from_slice(&2u64.to_le_bytes());
    want.extend_from_slice(&1u64.to_le_bytes());
    want.extend_from_slice(&1i32.to_le_bytes());
    want.extend_from_slice(&(-2i32).to_le_bytes());
    assert_eq!(bin(&v), want);

    let s = Value::Scalar(Scalar::Bool(true));
    assert_eq!(bin(&s), b"b\x02\x00bool\x01");
    let s = Value::Scalar(Scalar::U8(7));
    assert_eq!(bin(&s), b"b\x02\x00  u8\x07");
    let s = Value::Scalar(Scalar::F16(half::f16::from_f32(1.0)));
    assert_eq!(bin(&s), b"b\x02\x00 f16\x00\x3c");
}

#[test]
fn binary_and_text_mix() {
    let a = arr(&[3], ArrayData::F64(vec![1.0, 2.5, -3.0]));
    let mut input = b"  1i64 -- first\n".to_vec();
    input.extend(bin(&a));
    input.extend_from_slice(b"\n[true]\n");
    input.extend(bin(&Value::Scalar(Scalar::U16(9))));
    input.extend(bin(&arr(&[0, 4], ArrayData::I8(vec![]))));
    let vs = read_values(&input).unwrap();
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I64(1)),
            a,
            arr(&[1], ArrayData::Bool(vec![true])),
            Value::Scalar(Scalar::U16(9)),
            arr(&[0, 4], ArrayData::I8(vec![])),
        ]
    );
}

#[test]
fn gzip_input_is_detected_by_content() {
    let v = arr(&[2, 2], ArrayData::U32(vec![1, 2, 3, 4]));
    let mut plain = b"[1, 2] ".to_vec();
    plain.extend(bin(&v));
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&plain).unwrap();
    let gz = enc.finish().unwrap();
    let vs = read_values(&gz).unwrap();
    assert_eq!(vs, vec![arr(&[2], ArrayData::I32(vec![1, 2])), v.clone()]);

    // A file without a .gz extension is still decompressed.
    let dir = std::env::temp_dir().join(format!("parad-values-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("data.in");
    std::fs::write(&path, &gz).unwrap();
    assert_eq!(read_file(&path).unwrap().len(), 2);

    // Corrupt gzip is an error, not a panic.
    let mut bad = gz.clone();
    bad.truncate(gz.len() / 2);
    assert!(read_values(&bad)
        .unwrap_err()
        .to_string()
        .starts_with("invalid gzip data"));

    // Errors from a file name the file.
    let text_path = dir.join("bad.in");
    std::fs::write(&text_path, "[1,\n 2 3]").unwrap();
    let e = read_file(&text_path).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "{}: line 2, column 4: expected ']' or ',' after array element, found '3'",
            text_path.display()
        )
    );
    let missing = dir.join("missing.in");
    let e = read_file(&missing).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}: cannot read file", missing.display())),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn header_errors() {
    assert_eq!(
        err(b"b\x03\x00 i32\x01\x00\x00\x00"),
        "byte 1: unsupported binary format version 3 (expected 2)"
    );
    assert_eq!(
        err(b"1 b\x02\x00 i33\x01"),
        "byte 5: unknown binary element type \" i33\""
    );
    assert_eq!(
        err(b"b\x02\x01"),
        "byte 0: truncated binary value: expected a 7-byte header, found 3 bytes"
    );
    assert_eq!(
        err(b"b\x02\x02 f32\x01\x00\x00\x00\x00\x00\x00\x00"),
        "byte 7: truncated binary value: expected 16 bytes of shape for rank 2, found 8"
    );
}

#[test]
fn truncated_data_is_reported_before_allocating() {
    let mut v = b"b\x02\x01 f32".to_vec();
    v.extend_from_slice(&100u64.to_le_bytes());
    v.extend_from_slice(&[0; 12]);
    assert_eq!(
        err(&v),
        "byte 15: truncated binary value: expected 400 bytes of f32 data, found 12"
    );

    // A shape whose element count overflows must not allocate or panic.
    let mut huge = b"b\x02\x03 f64".to_vec();
    for _ in 0..3 {
        huge.extend_from_slice(&(1u64 << 40).to_le_bytes());
    }
    let e = err(&huge);
    assert!(
        e.starts_with("byte 31: truncated binary value: shape [1099511627776]"),
        "{e}"
    );

    // Large but representable: checked against the remaining input.
    let mut big = b"b\x02\x01 i64".to_vec();
    big.extend_from_slice(&(1u64 << 60).to_le_bytes());
    assert!(err(&big).contains("expected 9223372036854775808 bytes of i64 data, found 0"));

    let mut neg = b"b\x02\x01 i64".to_vec();
    neg.extend_from_slice(&(-1i64).to_le_bytes());
    assert_eq!(
        err(&neg),
        "byte 7: invalid array dimension -1 in binary value"
    );
}

#[test]
fn bool_bytes_must_be_zero_or_one() {
    let mut v = b"b\x02\x01bool".to_vec();
    v.extend_from_slice(&3u64.to_le_bytes());
    v.extend_from_slice(&[1, 0, 2]);
    assert_eq!(err(&v), "byte 17: invalid bool byte 2 (must be 0 or 1)");
}

#[test]
fn zero_sized_dimension_with_huge_other_dimension() {
    let mut v = b"b\x02\x02 i32".to_vec();
    v.extend_from_slice(&u32::MAX.to_le_bytes());
    v.extend_from_slice(&[0; 4]);
    v.extend_from_slice(&0u64.to_le_bytes());
    let vs = read_values(&v).unwrap();
    assert_eq!(vs[0].shape(), &[u32::MAX as usize, 0][..]);
}
