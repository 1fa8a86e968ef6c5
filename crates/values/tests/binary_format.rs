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

/// Hands out its bytes `step` at a time, so that values straddle reads.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Reading from a stream gives what reading the bytes gives: the same
/// values, or the same error at the same place.
#[test]
fn streams_read_like_bytes() {
    use parad_values::{read_values_as, read_values_from, ValueType};
    let big = arr(
        &[3, 40_000],
        ArrayData::F32((0..120_000).map(|i| i as f32).collect()),
    );
    let bools = arr(&[5], ArrayData::Bool(vec![true, false, true, true, false]));
    let mut inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"  \n 1 2.5\n".to_vec(),
        b"-- comment\n[1, 2]".to_vec(),
        b"[1,\n 2 3]".to_vec(),
        bin(&big),
        bin(&bools),
        [bin(&big), bin(&bools)].concat(),
        [b"\n\n  ".to_vec(), bin(&Value::Scalar(Scalar::I64(-7)))].concat(),
        [bin(&bools), b"\n 3 [1,\n 2 x]".to_vec()].concat(),
        [bin(&bools), b" 3\n".to_vec(), bin(&big)].concat(),
        [bin(&bools), b" 300".to_vec()].concat(),
    ];
    // Damaged binary values: header, shape, payload.
    let whole = bin(&big);
    for cut in [1, 3, 6, 7, 12, 20, 23, 1000, whole.len() - 1] {
        inputs.push(whole[..cut].to_vec());
        inputs.push([bin(&bools), whole[..cut].to_vec()].concat());
    }
    let mut bad = bin(&bools);
    bad[1] = 9;
    inputs.push(bad);
    let mut bad = bin(&bools);
    bad[5] = b'x';
    inputs.push(bad);
    let mut bad = bin(&bools);
    *bad.last_mut().unwrap() = 2;
    inputs.push(bad);
    let mut bad = bin(&big);
    bad[7..15].copy_from_slice(&(-3i64).to_le_bytes());
    inputs.push(bad);
    // Gzip, valid and cut short.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&[bin(&big), b" [1u8]".to_vec()].concat())
        .unwrap();
    let gz = enc.finish().unwrap();
    inputs.push(gz[..gz.len() / 2].to_vec());
    inputs.push(gz);

    let expected = [ValueType {
        rank: 0,
        elem: parad_base::PrimType::Int(parad_base::IntType::U8),
    }; 3];
    let show = |r: Result<Vec<Value>, parad_values::DataError>| match r {
        Ok(vs) => Ok(vs),
        Err(e) => Err(e.to_string()),
    };
    for input in &inputs {
        let want = show(read_values_as(input, &expected));
        for step in [1, 7, 1 << 20] {
            let got = show(read_values_from(Trickle { bytes: input, step }, &expected));
            assert_eq!(
                got,
                want,
                "input {:?}, step {step}",
                &input[..input.len().min(40)]
            );
        }
    }
}
