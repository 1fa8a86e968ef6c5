//! The IR reader: printed programs read back to the same program (the
//! same text, and a program the checker accepts), every constant keeps
//! its bits, malformed text is an error with a position, never a panic.

mod programs;

use parad_base::Scalar;
use parad_base::{FloatType, PrimType};
use parad_core::parse::{parse_body, parse_fun, parse_lambda, parse_program, parse_type};
use parad_core::{check_program, pretty, BinOp, CmpOp, ConvOp, Operand, Program, TernOp, UnOp};

const ALL_FORMS: &str = include_str!("ir/all_forms.pir");

/// Reads `text`, checks it, and prints it again.
fn reprint(text: &str) -> (Program, String) {
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    let again = p.to_string();
    (p, again)
}

#[test]
fn every_form_reads_back() {
    let (p, again) = reprint(ALL_FORMS);
    assert_eq!(again, ALL_FORMS.trim_end(), "\n{again}");
    // Names keep their ids; new ones come after the largest.
    assert_eq!(p.names.peek(), 98);
    assert_eq!(p.entries.len(), 2);
}

#[test]
fn builder_programs_read_back() {
    for p in programs::all() {
        let text = p.to_string();
        let (q, again) = reprint(&text);
        assert_eq!(again, text);
        assert_eq!(q.entries, p.entries);
        assert!(q.names.peek() <= p.names.peek());
    }
}

#[test]
fn parts_read_back() {
    let f = parse_fun(
        "fun f(x_1: [n_0][4]f32, n_0: i64): () {\n  let () = assert(true, \"ok\")\n  in ()\n}",
    )
    .unwrap();
    assert_eq!(f.params.len(), 2);
    assert_eq!(parse_fun(&f.to_string()).unwrap(), f);
    let b = parse_body("{ let x_1: i32 = 1i32 in (x_1, 2i32) }").unwrap();
    assert_eq!(
        b.to_string(),
        "{\n  let x_1: i32 = 1i32\n  in (x_1, 2i32)\n}"
    );
    let l = parse_lambda("\\(a_1: f32): f32 { in a_1 }").unwrap();
    assert_eq!(l.to_string(), "\\(a_1: f32): f32 {\n  in a_1\n}");
    for t in [
        "[n_3][4]f32",
        "[?]bool",
        "acc([n_1][?], (f32, [3]i64))",
        "acc(, u8)",
        "f16",
    ] {
        assert_eq!(parse_type(t).unwrap().to_string(), t);
    }
}

#[test]
fn layout_and_comments_do_not_matter() {
    let text = "-- a comment\nentry \"f\" = f : (i64) -> i64 fun f(x_7: i64): i64 { -- the body\n in x_7 }";
    let p = parse_program(text).unwrap();
    assert_eq!(
        p.to_string(),
        "entry \"f\" = f : (i64) -> i64\n\nfun f(x_7: i64): i64 {\n  in x_7\n}"
    );
}

/// The base name is everything before the last `_`.
#[test]
fn names_split_at_the_last_underscore() {
    let b = parse_body("{ in (row_tan_12, x'_3, _4) }").unwrap();
    let names: Vec<(String, u32)> = b
        .result
        .iter()
        .map(|o| {
            let v = o.var().unwrap();
            (v.base.as_str().to_string(), v.id)
        })
        .collect();
    assert_eq!(
        names,
        [("row_tan".into(), 12), ("x'".into(), 3), ("".into(), 4)]
    );
}

fn read_scalar(text: &str) -> Scalar {
    let b = parse_body(&format!("{{ in {text} }}")).unwrap_or_else(|e| panic!("{text}: {e}"));
    match b.result[..] {
        [Operand::Const(s)] => s,
        _ => panic!("{text} is not a constant"),
    }
}

/// The same value, NaNs equal (their payload is not printed).
fn same_bits(a: Scalar, b: Scalar) -> bool {
    match (a, b) {
        (Scalar::F16(x), Scalar::F16(y)) => x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan(),
        (Scalar::F32(x), Scalar::F32(y)) => x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan(),
        (Scalar::F64(x), Scalar::F64(y)) => x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan(),
        _ => a == b,
    }
}

#[test]
fn constants_keep_their_bits() {
    let f16 = |x: f64| Scalar::from_float(FloatType::F16, x);
    let mut xs = vec![Scalar::Bool(true), Scalar::Bool(false)];
    for v in [0i128, 1, -1, 127, -128, 255, 32767, -32768, 65535] {
        for t in parad_base::IntType::ALL {
            xs.push(Scalar::from_int(t, v));
        }
    }
    xs.extend([
        Scalar::I64(i64::MIN),
        Scalar::I64(i64::MAX),
        Scalar::U64(u64::MAX),
        Scalar::I32(i32::MIN),
        Scalar::U32(u32::MAX),
    ]);
    let f64s = [
        0.0,
        -0.0,
        0.1,
        1.0 / 3.0,
        1e300,
        -2.5e-300,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e16,
        123456789.125,
    ];
    for x in f64s {
        xs.push(Scalar::F64(x));
        xs.push(Scalar::F32(x as f32));
        xs.push(f16(x));
    }
    xs.extend([
        Scalar::F32(f32::MAX),
        Scalar::F32(f32::MIN_POSITIVE),
        Scalar::F32(1e-45),
        Scalar::F32(0.1),
        f16(65504.0),
        f16(5.960464477539063e-8),
        f16(6.097555160522461e-5),
    ]);
    for bits in (0..=u16::MAX).step_by(97) {
        xs.push(f16(f64::from_bits((bits as u64) << 48)));
        xs.push(Scalar::F32(f32::from_bits((bits as u32) << 16 | 0x1234)));
        xs.push(Scalar::F64(f64::from_bits(
            (bits as u64) << 48 | 0x5678_9abc,
        )));
    }
    for x in xs {
        let text = pretty::scalar(&x);
        let y = read_scalar(&text);
        assert!(same_bits(x, y), "{x:?} printed {text} read {y:?}");
    }
}

#[test]
fn constants_out_of_range_or_unsuffixed_are_errors() {
    for (text, col, msg) in [
        ("256u8", 6, "out of range for u8"),
        ("-1u32", 6, "out of range for u32"),
        ("128i8", 6, "out of range for i8"),
        (
            "99999999999999999999999999999999999999999i64",
            6,
            "malformed integer",
        ),
        ("1.5i32", 6, "malformed integer"),
        ("3", 6, "needs a type suffix"),
        ("3i7", 6, "unknown type suffix `i7`"),
        ("3bool", 6, "unknown type suffix `bool`"),
        ("f32.one", 10, "expected `inf` or `nan`"),
        ("-f64.nan", 11, "expected `inf` or `nan`"),
    ] {
        let e = parse_body(&format!("{{ in {text} }}")).unwrap_err();
        assert!(e.message.contains(msg), "{text}: {e}");
        assert_eq!((e.line, e.col), (1, col), "{text}: {e}");
    }
}

/// The reader tells operators apart by name alone.
#[test]
fn operator_names_are_distinct() {
    let mut names: Vec<&str> = UnOp::ALL.iter().map(|o| o.name()).collect();
    names.extend(BinOp::ALL.iter().map(|o| o.name()));
    names.extend(CmpOp::ALL.iter().map(|o| o.name()));
    names.extend(TernOp::ALL.iter().map(|o| o.name()));
    names.extend(ConvOp::ALL.iter().map(|o| o.name()));
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "an operator name is used twice");
    // Nor can they be mistaken for a variable, a type or a keyword.
    for w in names {
        assert!(PrimType::from_name(w).is_none(), "{w}");
        assert!(!w
            .rsplit_once('_')
            .is_some_and(|(_, id)| id.bytes().all(|b| b.is_ascii_digit())));
    }
}

#[test]
fn malformed_text_is_an_error_at_a_position() {
    let cases: &[(&str, (u32, u32), &str)] = &[
        (
            "fun f(): i32 {\n  in y\n}",
            (2, 6),
            "expected a variable (`base_id`), found `y`",
        ),
        (
            "fun f(): i32 {\n  let x_1: i32 = 1i32\n}",
            (3, 1),
            "expected `let` or `in`, found `}`",
        ),
        (
            "fun f(): i32 {\n  let x_1: i32 = add.i32(1i32)\n  in x_1\n}",
            (2, 25),
            "`add` takes 2 operands, found 1",
        ),
        (
            "fun f(): i32 {\n  let x_1: i32 = frob.i32(1i32)\n  in x_1\n}",
            (2, 18),
            "unknown operation `frob`",
        ),
        (
            "fun f(): i32 {\n  let x_1: i33 = 1i32\n  in x_1\n}",
            (2, 12),
            "expected a primitive type, found `i33`",
        ),
        (
            "fun f(): i32 {\n  let x_1: i32 = iota.f32(1i64, 0i64, 1i64)\n  in x_1\n}",
            (2, 23),
            "expected an integer type, found `f32`",
        ),
        (
            "fun f(): i32 {\n  let () = assert(true, \"open)\n  in ()\n}",
            (2, 25),
            "unterminated string",
        ),
        (
            "fun f(): i32 {\n  let () = assert(true, \"\\q\")\n  in ()\n}",
            (2, 26),
            "unknown escape",
        ),
        ("fun f(): i32 { @ }", (1, 16), "unexpected character '@'"),
        (
            "fun f(): i32 {",
            (1, 15),
            "expected `let` or `in`, found end of input",
        ),
        (
            "entry main = f : () -> ()",
            (1, 7),
            "expected a string, found `main`",
        ),
        (
            "fun f(): i32 { in 1i32 } extra",
            (1, 26),
            "expected `entry` or `fun`, found `extra`",
        ),
        (
            "fun f(): i32 { in x_99999999999 }",
            (1, 19),
            "name id too large",
        ),
        (
            "fun f(): i32 { let x_1: i32 = loop (p_2: i32 = 0i32) until p_2 { in p_2 } in x_1 }",
            (1, 54),
            "expected `for` or `while`, found `until`",
        ),
    ];
    for (text, (line, col), msg) in cases {
        let e = parse_program(text).unwrap_err();
        assert!(
            e.message.contains(msg),
            "{text}\n  got {e}\n  expected {msg}"
        );
        assert_eq!((e.line, e.col), (*line, *col), "{text}\n  got {e}");
        assert!(e.to_string().starts_with(&format!("{line}:{col}: ")));
    }
}

/// Deep nesting is an error, not a stack overflow.
#[test]
fn nesting_has_a_limit() {
    let nest = |depth: usize| {
        let mut s = String::new();
        for k in 0..depth {
            s.push_str(&format!("{{ let x_{k}: i32 = if true : i32 then "));
        }
        s.push_str("{ in 1i32 }");
        for k in 0..depth {
            s.push_str(&format!(" else {{ in 0i32 }} in x_{k} }}"));
        }
        s
    };
    // As deep as strip-mining makes loops, on a test thread's stack (the
    // reader runs on a stack of its own; dropping the result still takes
    // some of the caller's).
    assert!(parse_body(&nest(1000)).is_ok());
    let e = parse_body(&nest(5000)).unwrap_err();
    assert!(e.message.contains("nesting too deep"), "{e}");
    let e = parse_type(&"acc(, ".repeat(5000)).unwrap_err();
    assert!(e.message.contains("nesting too deep"), "{e}");
}

/// A small deterministic generator (no dependency needed).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Truncated and mutated programs: every outcome is a value or an error
/// inside the text, never a panic (and the checker does not panic on
/// what the reader accepts).
#[test]
fn truncated_or_mutated_text_never_panics() {
    let mut texts = vec![ALL_FORMS.to_string()];
    texts.extend([programs::histogram(), programs::collatz()].map(|p| p.to_string()));
    let pieces = [
        "(", ")", "[", "]", "{", "}", ",", ":", "=", ".", "-", "<-", "->", "\"", "\\", "#[", "x_1",
        "_", "9", "1e", "f32", "i64", "?", "in", "let", "acc(", "\n", " ", "é", "\\u{",
    ];
    let mut rng = Rng(7);
    let mut cases = 0;
    for text in &texts {
        let chars: Vec<char> = text.chars().collect();
        let mut variants: Vec<String> = (0..chars.len())
            .step_by(7)
            .map(|k| chars[..k].iter().collect())
            .collect();
        for _ in 0..3000 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(c.len());
                match rng.below(4) {
                    0 => {
                        c.remove(at);
                    }
                    1 => {
                        let p = pieces[rng.below(pieces.len())];
                        for (k, ch) in p.chars().enumerate() {
                            c.insert(at + k, ch);
                        }
                    }
                    2 => {
                        let len = rng.below(40).min(c.len() - at);
                        c.drain(at..at + len);
                    }
                    _ => {
                        let other = rng.below(c.len());
                        c.swap(at, other);
                    }
                }
            }
            variants.push(c.into_iter().collect());
        }
        for v in variants {
            cases += 1;
            let lines = v.lines().count() as u32 + 1;
            let r = std::panic::catch_unwind(|| match parse_program(&v) {
                Ok(p) => {
                    let _ = check_program(&p);
                    None
                }
                Err(e) => Some(e),
            });
            match r {
                Err(_) => panic!("panicked on:\n{v}"),
                Ok(Some(e)) => assert!(e.line >= 1 && e.line <= lines && e.col >= 1, "{e}"),
                Ok(None) => {}
            }
        }
    }
    assert!(cases > 9000);
}
