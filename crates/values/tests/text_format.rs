//! Reading and printing the text format.

use half::f16;
use parad_values::{read_values, to_text, ArrayData, ArrayValue, Scalar, Value};

fn one(src: &str) -> Value {
    let vs = read_values(src.as_bytes()).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert_eq!(vs.len(), 1, "{src}");
    vs.into_iter().next().unwrap()
}

fn err(src: &str) -> String {
    match read_values(src.as_bytes()) {
        Ok(vs) => panic!("{src}: expected an error, got {vs:?}"),
        Err(e) => e.to_string(),
    }
}

fn arr(shape: &[usize], data: ArrayData) -> Value {
    Value::Array(ArrayValue::new(shape.to_vec(), data).unwrap())
}

#[test]
fn scalars_with_and_without_suffixes() {
    assert_eq!(one("42"), Value::Scalar(Scalar::I32(42)));
    assert_eq!(one("-7i8"), Value::Scalar(Scalar::I8(-7)));
    assert_eq!(one("300u16"), Value::Scalar(Scalar::U16(300)));
    assert_eq!(one("1_000_000i64"), Value::Scalar(Scalar::I64(1_000_000)));
    assert_eq!(one("0xFFu8"), Value::Scalar(Scalar::U8(255)));
    assert_eq!(one("0b101i32"), Value::Scalar(Scalar::I32(5)));
    assert_eq!(one("2.5"), Value::Scalar(Scalar::F64(2.5)));
    assert_eq!(one("2.5f32"), Value::Scalar(Scalar::F32(2.5)));
    assert_eq!(one("0f32"), Value::Scalar(Scalar::F32(0.0)));
    assert_eq!(one("1337e2f64"), Value::Scalar(Scalar::F64(133700.0)));
    assert_eq!(one("1e-3"), Value::Scalar(Scalar::F64(0.001)));
    assert_eq!(one("0x1.8p1f32"), Value::Scalar(Scalar::F32(3.0)));
    assert_eq!(
        one("-0.5f16"),
        Value::Scalar(Scalar::F16(f16::from_f32(-0.5)))
    );
    assert_eq!(one("true"), Value::Scalar(Scalar::Bool(true)));
    assert_eq!(one("false"), Value::Scalar(Scalar::Bool(false)));
    assert_eq!(one("'a'"), Value::Scalar(Scalar::I32(97)));
    assert_eq!(one("f32.inf"), Value::Scalar(Scalar::F32(f32::INFINITY)));
    assert_eq!(
        one("-f64.inf"),
        Value::Scalar(Scalar::F64(f64::NEG_INFINITY))
    );
    assert_eq!(one("f16.inf"), Value::Scalar(Scalar::F16(f16::INFINITY)));
    assert!(matches!(one("f64.nan"), Value::Scalar(Scalar::F64(x)) if x.is_nan()));
    assert!(matches!(one("f32.nan"), Value::Scalar(Scalar::F32(x)) if x.is_nan()));
}

#[test]
fn bit_patterns_of_the_width() {
    // As Futhark's data files write them: a suffixed literal that is a bit
    // pattern of its type's width is that pattern.
    let src = "255i8 -1u8 -271733879u32 0xffffi16";
    let vs = parad_values::read_values(src.as_bytes()).unwrap();
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I8(-1)),
            Value::Scalar(Scalar::U8(255)),
            Value::Scalar(Scalar::U32(4023233417)),
            Value::Scalar(Scalar::I16(-1)),
        ]
    );
}

#[test]
fn wider_suffixed_literals_wrap() {
    let src = "300u8 -129u8 32767i8 0b11011011010010010i16 0x100u8 [[1i8, -129i8]]";
    let vs = parad_values::read_values(src.as_bytes()).unwrap();
    assert_eq!(vs[0], Value::Scalar(Scalar::U8(44)));
    assert_eq!(vs[1], Value::Scalar(Scalar::U8(127)));
    assert_eq!(vs[2], Value::Scalar(Scalar::I8(-1)));
    assert_eq!(vs[3], Value::Scalar(Scalar::I16(-18798)));
    assert_eq!(vs[4], Value::Scalar(Scalar::U8(0)));
    assert_eq!(
        vs[5],
        parad_values::read_values(b"[[1i8, 127i8]]").unwrap()[0]
    );
}

#[test]
fn out_of_range_integers_are_located_errors() {
    // An unsuffixed literal never wraps beyond the expected type, in a
    // scalar or an array; a suffixed one wraps to its type's width as in
    // Futhark's value reader (`wider_suffixed_literals_wrap`), unless it
    // exceeds 64 bits.
    for (src, msg) in [
        (
            "18446744073709551616u64",
            "line 1, column 1: this integer does not fit in its type u64 (0 to 18446744073709551615)",
        ),
        (
            "[1u8,\n  256]",
            "line 2, column 3: 256 does not fit in the expected type u8 (0 to 255) (the type of the first element)",
        ),
        (
            "3000000000",
            "line 1, column 1: 3000000000 does not fit in the expected type i32 (-2147483648 to 2147483647)",
        ),
    ] {
        assert_eq!(err(src), msg, "{src}");
    }
    // The ends of each range are fine.
    assert_eq!(one("-128i8"), Value::Scalar(Scalar::I8(-128)));
    assert_eq!(one("0xffu8"), Value::Scalar(Scalar::U8(255)));
    assert_eq!(one("-0x80i8"), Value::Scalar(Scalar::I8(-128)));
    assert_eq!(
        one("-9223372036854775808i64"),
        Value::Scalar(Scalar::I64(i64::MIN))
    );
    assert_eq!(one("65535u16"), Value::Scalar(Scalar::U16(u16::MAX)));
}

#[test]
fn float_literals_round_once_to_their_type() {
    // 16777217 is not representable in f32; reading via f64 first would
    // still give 16777216, but this exercises decimal-to-f32 directly.
    assert_eq!(one("0.1f32"), Value::Scalar(Scalar::F32(0.1f32)));
    assert_eq!(one("16777217f32"), Value::Scalar(Scalar::F32(16777216.0)));
    assert_eq!(
        one("8.742278e-8f16"),
        Value::Scalar(Scalar::F16(f16::from_f64(8.742278e-8)))
    );
}

#[test]
fn arrays_take_the_type_of_their_first_element() {
    assert_eq!(one("[1, 2, 3]"), arr(&[3], ArrayData::I32(vec![1, 2, 3])));
    assert_eq!(
        one("[1i64, 2, -3]"),
        arr(&[3], ArrayData::I64(vec![1, 2, -3]))
    );
    assert_eq!(
        one("[1.0f32, 2, 3.5]"),
        arr(&[3], ArrayData::F32(vec![1.0, 2.0, 3.5]))
    );
    assert_eq!(
        one("[f32.inf, 1]"),
        arr(&[2], ArrayData::F32(vec![f32::INFINITY, 1.0]))
    );
    assert_eq!(
        one("[[1u8], [2u8]]"),
        arr(&[2, 1], ArrayData::U8(vec![1, 2]))
    );
    assert_eq!(
        one("[[true, false], [false, true], [true, true]]"),
        arr(
            &[3, 2],
            ArrayData::Bool(vec![true, false, false, true, true, true])
        )
    );
    assert_eq!(
        one("[ [ [1] , [2] ] ,[[3],[4]] ]"),
        arr(&[2, 2, 1], ArrayData::I32(vec![1, 2, 3, 4]))
    );
}

#[test]
fn empty_arrays() {
    assert_eq!(one("empty([0]i32)"), arr(&[0], ArrayData::I32(vec![])));
    assert_eq!(
        one("empty([2][0]f32)"),
        arr(&[2, 0], ArrayData::F32(vec![]))
    );
    assert_eq!(
        one("empty( [0] [3] bool )"),
        arr(&[0, 3], ArrayData::Bool(vec![]))
    );
    // Without an element there is no element type.
    assert!(err("[[], []]").contains("empty array literal has no element type"));
}

#[test]
fn strings_are_u8_arrays() {
    assert_eq!(one("\"12\""), arr(&[2], ArrayData::U8(b"12".to_vec())));
    assert_eq!(one("\"a\\n\""), arr(&[2], ArrayData::U8(b"a\n".to_vec())));
    assert_eq!(one("\"\""), arr(&[0], ArrayData::U8(vec![])));
}

#[test]
fn comments_and_whitespace_separate_values() {
    let vs =
        read_values(b"-- a comment\n1 -- one\n\n  [2,\n-- inside\n 3]\r\n\ttrue -- end").unwrap();
    assert_eq!(
        vs,
        vec![
            Value::Scalar(Scalar::I32(1)),
            arr(&[2], ArrayData::I32(vec![2, 3])),
            Value::Scalar(Scalar::Bool(true)),
        ]
    );
    assert_eq!(read_values(b"  \n-- nothing\n").unwrap(), vec![]);
}

#[test]
fn printing_matches_futhark() {
    let cases = [
        ("[1, 2]", "[1i32, 2i32]"),
        ("3.5f32", "3.5f32"),
        ("1f64", "1.0f64"),
        ("-0.0f32", "-0.0f32"),
        ("true", "true"),
        ("empty([0][3]f32)", "empty([0][3]f32)"),
        ("f32.nan", "f32.nan"),
        ("-f64.inf", "-f64.inf"),
        ("f16.inf", "f16.inf"),
        ("[[1u8], [2u8]]", "[[1u8], [2u8]]"),
        (
            "[[1, 2, 3], [4, 5, 6]]",
            "[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]]",
        ),
        ("[[[1i8]], [[2i8]]]", "[[[1i8]], [[2i8]]]"),
        ("0.1f16", "0.1f16"),
        ("0.1f32", "0.1f32"),
        ("0.1", "0.1f64"),
        ("1e20f32", "1e20f32"),
        ("255u8", "255u8"),
        ("-128i8", "-128i8"),
        ("18446744073709551615u64", "18446744073709551615u64"),
    ];
    for (src, want) in cases {
        assert_eq!(to_text(&one(src)), want, "{src}");
    }
}

#[test]
fn syntax_errors_are_located() {
    assert_eq!(
        err("[1, 2\n  3]"),
        "line 2, column 3: expected ']' or ',' after array element, found '3'"
    );
    assert_eq!(
        err("[1, ]"),
        "line 1, column 5: expected an array element after ','"
    );
    assert_eq!(
        err("\n\n  [1,\n   2"),
        "line 4, column 5: expected ']' or ',' after array element, found end of input"
    );
    assert_eq!(
        err("1 2 xyz"),
        "line 1, column 5: expected a value, found 'xyz'"
    );
    assert_eq!(
        err("1.5i32"),
        "line 1, column 4: floating-point literal cannot have integer type suffix 'i32'"
    );
    assert_eq!(
        err("12q"),
        "line 1, column 3: invalid suffix 'q' on numeric literal"
    );
    assert_eq!(err("1."), "line 1, column 3: expected digits after '.'");
    assert_eq!(
        err("1e"),
        "line 1, column 3: expected exponent digits after 'e'"
    );
    assert_eq!(err(","), "line 1, column 1: expected a value, found ','");
    assert_eq!(
        err("-"),
        "line 1, column 2: expected a number after '-', found end of input"
    );
    assert_eq!(err("\"abc"), "line 1, column 5: unterminated literal");
}

#[test]
fn irregular_arrays_are_rejected() {
    assert_eq!(
        err("[[1, 2],\n [3, 4, 5]]"),
        "line 2, column 2: irregular array: this array has 3 elements, but an earlier one at the same depth has 2"
    );
    assert_eq!(
        err("[[1], 2]"),
        "line 1, column 7: irregular array: this element is less nested than the first element"
    );
    assert_eq!(
        err("[1, [2]]"),
        "line 1, column 5: irregular array: this element is nested deeper than the first element"
    );
    assert_eq!(
        err("[[[]], [1]]"),
        "line 1, column 9: irregular array: this element is less nested than an earlier array"
    );
    assert_eq!(
        err("[[], [1]]"),
        "line 1, column 6: irregular array: this array has 1 element, but an earlier one at the same depth has 0"
    );
}

#[test]
fn element_types_must_agree() {
    assert_eq!(
        err("[1, 2i64]"),
        "line 1, column 5: array element has type i64, but the first element has type i32"
    );
    assert_eq!(
        err("[1, 2.5]"),
        "line 1, column 5: expected a value of type i32, found a floating-point literal (the type of the first element)"
    );
    assert_eq!(
        err("[true, 1]"),
        "line 1, column 8: expected a value of type bool, found an integer literal (the type of the first element)"
    );
}

#[test]
fn empty_needs_a_zero_dimension_and_a_type() {
    assert_eq!(
        err("empty([2]i32)"),
        "line 1, column 7: empty(...) needs an array type with at least one zero dimension, e.g. empty([0]i32)"
    );
    assert_eq!(
        err("empty([0]int)"),
        "line 1, column 10: unknown primitive type 'int'"
    );
    assert_eq!(
        err("[]"),
        "line 1, column 1: an empty array literal has no element type; write it as empty([0]t), e.g. empty([0]i32)"
    );
    assert_eq!(
        err("empty([0]i32"),
        "line 1, column 13: expected ')' after the type in empty(...), found end of input"
    );
}

#[test]
fn error_columns_count_characters() {
    assert_eq!(
        err("\"é\" é"),
        "line 1, column 5: expected a value, found 'é'"
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let deep = "[".repeat(100_000);
    assert!(err(&deep).contains("rank above 255"));
    let ok = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    assert_eq!(one(&ok).rank(), 200);
}

#[test]
fn every_f16_prints_and_reads_back_exactly() {
    for bits in 0..=u16::MAX {
        let x = f16::from_bits(bits);
        let text = to_text(&Value::Scalar(Scalar::F16(x)));
        match one(&text) {
            Value::Scalar(Scalar::F16(y)) if x.is_nan() => assert!(y.is_nan(), "{text}"),
            Value::Scalar(Scalar::F16(y)) => assert_eq!(y.to_bits(), bits, "{text}"),
            other => panic!("{text} read as {other:?}"),
        }
    }
}
