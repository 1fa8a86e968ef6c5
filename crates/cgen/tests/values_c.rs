//! The C runtime's value reader and writer (`src/runtime/values.h`)
//! against `parad_values`, its specification: a small C harness
//! (`values_harness.c`) reads values of a given type from standard input
//! and prints them back in the text or the binary format. Every input is
//! also read by the Rust reader: the C side must accept exactly what Rust
//! accepts (with the expected type), print byte-for-byte what Rust prints,
//! and report Rust's message for malformed input (its own, starting with
//! "expected <type>, but", for a value of another type). Garbage input
//! must give an error exit with a message, never a crash; it also runs
//! under AddressSanitizer and UndefinedBehaviorSanitizer where available.
//! Skipped (with a note) when no `cc` is on PATH.

use half::f16;
use parad_base::{FloatType, IntType, PrimType};
use parad_values::{ArrayData, ArrayValue, Scalar, Value, ValueType};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const FLAGS: &[&str] = &["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"];
const SAN_FLAGS: &[&str] = &[
    "-std=c99",
    "-O1",
    "-g",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

struct Harness {
    exe: PathBuf,
    /// The same, under the sanitizers (if they work here).
    san: Option<PathBuf>,
}

/// The compiled harness, or `None` (with a note) without a C compiler.
fn harness() -> Option<&'static Harness> {
    static H: OnceLock<Option<Harness>> = OnceLock::new();
    H.get_or_init(|| {
        let have_cc = Command::new("cc")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !have_cc {
            eprintln!("note: no `cc` on PATH; values.h test skipped");
            return None;
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("values_c");
        std::fs::create_dir_all(&dir).unwrap();
        let exe = compile(&dir, "values_harness", FLAGS).unwrap_or_else(|e| {
            panic!("the values.h harness does not compile:\n{e}");
        });
        let san = match compile(&dir, "values_harness_san", SAN_FLAGS) {
            Ok(p) if run_ok(&p) => Some(p),
            _ => {
                eprintln!("note: sanitizers unavailable; garbage inputs tested without them");
                None
            }
        };
        Some(Harness { exe, san })
    })
    .as_ref()
}

fn compile(dir: &Path, name: &str, flags: &[&str]) -> Result<PathBuf, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join(name);
    let out = Command::new("cc")
        .args(flags)
        .arg("-I")
        .arg(manifest.join("src/runtime"))
        .arg(manifest.join("tests/values_harness.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    if out.status.success() {
        Ok(exe)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Whether a sanitizer build runs at all (its runtime may be missing).
fn run_ok(exe: &Path) -> bool {
    run_exe(exe, &["2", "0", "text"], b"1").is_ok_and(|r| r.is_ok())
}

/// The number of a type in values.h's `enum pv_prim`.
fn pv(t: PrimType) -> usize {
    use FloatType::*;
    use IntType::*;
    match t {
        PrimType::Int(I8) => 0,
        PrimType::Int(I16) => 1,
        PrimType::Int(I32) => 2,
        PrimType::Int(I64) => 3,
        PrimType::Int(U8) => 4,
        PrimType::Int(U16) => 5,
        PrimType::Int(U32) => 6,
        PrimType::Int(U64) => 7,
        PrimType::Float(F16) => 8,
        PrimType::Float(F32) => 9,
        PrimType::Float(F64) => 10,
        PrimType::Bool => 11,
    }
}

/// Runs the harness: `Ok(Ok(stdout))`, `Ok(Err(message))` for an error
/// exit, `Err` for anything else (a crash, a sanitizer report).
fn run_exe(exe: &Path, args: &[&str], input: &[u8]) -> Result<Result<Vec<u8>, String>, String> {
    let mut child = Command::new(exe)
        .args(args)
        .env("ASAN_OPTIONS", "detect_leaks=1:allocator_may_return_null=1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    // AddressSanitizer notes a refused huge allocation (which values.h
    // reports as out of memory); anything else from it is a failure.
    let stderr: String = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| {
            !(l.starts_with("==") && l.contains("WARNING: AddressSanitizer failed to allocate"))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    match out.status.code() {
        Some(0) if stderr.is_empty() => Ok(Ok(out.stdout)),
        Some(1)
            if !stderr.trim().is_empty()
                && !stderr.contains("Sanitizer")
                && !stderr.contains("runtime error") =>
        {
            Ok(Err(stderr.trim_end().to_string()))
        }
        _ => Err(format!(
            "harness {args:?} failed ({}):\n{stderr}",
            out.status
        )),
    }
}

fn run_c(
    exe: &Path,
    t: PrimType,
    rank: usize,
    mode: &str,
    input: &[u8],
) -> Result<Vec<u8>, String> {
    let (p, r) = (pv(t).to_string(), rank.to_string());
    run_exe(exe, &[&p, &r, mode], input).unwrap_or_else(|e| {
        panic!(
            "{e}\ninput ({t}, rank {rank}): {:?}",
            String::from_utf8_lossy(input)
        )
    })
}

fn type_name(t: PrimType, rank: usize) -> String {
    format!("{}{t}", "[]".repeat(rank))
}

/// How the Rust reader takes an input, as values of one type.
enum Oracle {
    Values(Vec<Value>),
    /// Read, but some value has another type.
    WrongType,
    /// The Rust reader's message.
    Error(String),
}

fn oracle(t: PrimType, rank: usize, input: &[u8]) -> Oracle {
    let vt = ValueType { rank, elem: t };
    match parad_values::read_values_from(input, &[vt; 64]) {
        Ok(vs) if vs.iter().all(|v| v.rank() == rank && v.elem_type() == t) => Oracle::Values(vs),
        Ok(_) => Oracle::WrongType,
        Err(e) => Oracle::Error(e.to_string()),
    }
}

fn text_of(vs: &[Value]) -> String {
    parad_values::values_to_text(vs)
}

fn binary_of(vs: &[Value]) -> Vec<u8> {
    let mut out = vec![];
    for v in vs {
        parad_values::write_binary(v, &mut out);
    }
    out
}

/// Whether a C message is one of its own "wrong type" messages.
fn is_type_message(msg: &str, t: PrimType, rank: usize) -> bool {
    msg.contains(&format!("expected {}, but ", type_name(t, rank)))
}

/// Checks the C reader against the Rust reader on one input: the same
/// values printed the same way in both formats, or an error in both (the
/// same message unless it is C's own type message). Returns whether the
/// input was accepted, or a description of a mismatch.
fn compare(exe: &Path, t: PrimType, rank: usize, input: &[u8]) -> Result<bool, String> {
    let shown = || {
        format!(
            "{t} rank {rank}, input {:?}",
            String::from_utf8_lossy(input)
        )
    };
    let c_text = run_c(exe, t, rank, "text", input);
    let mut accepted = false;
    match oracle(t, rank, input) {
        Oracle::Values(vs) => {
            accepted = true;
            let want = text_of(&vs);
            match c_text {
                Ok(got) if got == want.as_bytes() => {}
                Ok(got) => {
                    return Err(format!(
                        "{}: C printed\n  {}\nRust printed\n  {want}",
                        shown(),
                        String::from_utf8_lossy(&got)
                    ))
                }
                Err(m) => return Err(format!("{}: C rejected it: {m}", shown())),
            }
            let c_bin = run_c(exe, t, rank, "binary", input);
            if c_bin.as_deref() != Ok(&binary_of(&vs)[..]) {
                return Err(format!("{}: binary output differs: {c_bin:?}", shown()));
            }
        }
        Oracle::WrongType => match c_text {
            Ok(got) => {
                return Err(format!(
                    "{}: a value has another type, but C printed {}",
                    shown(),
                    String::from_utf8_lossy(&got)
                ))
            }
            Err(m) if is_type_message(&m, t, rank) => {}
            Err(m) => return Err(format!("{}: not a type message: {m}", shown())),
        },
        Oracle::Error(want) => match c_text {
            Ok(got) => {
                return Err(format!(
                    "{}: Rust rejected it ({want}), but C printed {}",
                    shown(),
                    String::from_utf8_lossy(&got)
                ))
            }
            Err(m) if m == want || is_type_message(&m, t, rank) => {}
            Err(m) => {
                return Err(format!(
                    "{}: messages differ:\n  C:    {m}\n  Rust: {want}",
                    shown()
                ))
            }
        },
    }
    Ok(accepted)
}

fn all_types() -> impl Iterator<Item = PrimType> {
    PrimType::all()
}

fn ty(name: &str) -> PrimType {
    PrimType::from_name(name).unwrap()
}

// ---- hand-picked values -------------------------------------------------------

/// A hexadecimal float whose digits overflow f64 and whose scale is 0.
const HEX_INF_TIMES_0: &str = concat!(
    "0x",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "p-5000"
);

const HEX_2_1023_P_2048: &str = concat!(
    "0x8",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000000000000000000000000000000000000000000",
    "p-2048"
);

#[test]
fn hand_picked_text() {
    let Some(h) = harness() else { return };
    let cases: &[(&str, usize, &str)] = &[
        // Integers: typed, untyped, extremes, wrapping, other radices.
        ("i32", 0, "1"),
        ("i32", 0, "-5i32"),
        ("i32", 0, "  -- a comment\n 7 -- another\n"),
        ("i8", 0, "-128"),
        ("i8", 0, "127"),
        ("i8", 0, "128"),
        ("i8", 0, "-129"),
        ("i8", 0, "255i8"),
        ("i8", 0, "32767i8"),
        ("u8", 0, "300"),
        ("u8", 0, "300u8"),
        ("u8", 0, "-0"),
        ("u8", 0, "-1"),
        ("u32", 0, "-1u32"),
        ("i16", 1, "[32767, -32768, 0x7fff, -0x8000, 0b1010, 1_000]"),
        ("i64", 0, "-9223372036854775808"),
        ("i64", 0, "9223372036854775807"),
        ("i64", 0, "9223372036854775808"),
        ("i64", 0, "18446744073709551616i64"),
        ("i64", 0, "-18446744073709551615i64"),
        ("u64", 0, "18446744073709551615"),
        ("u64", 0, "18446744073709551616"),
        ("u64", 0, "0xffff_ffff_ffff_ffff"),
        ("u64", 0, "0x1_0000_0000_0000_0000"),
        ("u16", 0, "0x"),
        ("u16", 0, "0x_"),
        ("u16", 0, "0b"),
        ("u16", 0, "0b2"),
        ("u16", 0, "0B11u16"),
        ("u16", 0, "0XffU16"),
        ("i32", 0, "'a'"),
        ("i32", 0, "-'a'"),
        ("u8", 0, "'é'"),
        ("i8", 0, "'é'"),
        ("i32", 0, "'\\n'"),
        ("i32", 0, "'\\q'"),
        ("i32", 0, "''"),
        ("i32", 0, "'ab'"),
        ("i32", 0, "'a"),
        ("i32", 0, "1i32 2i32 -3i32"),
        ("i32", 0, "1i64"),
        ("i32", 0, "1.5"),
        ("i32", 0, "1f32"),
        ("i32", 0, "true"),
        ("i32", 0, "-true"),
        ("i32", 0, "-"),
        ("i32", 0, "- 5"),
        ("i32", 0, "1i31"),
        ("i32", 0, "1.0i32"),
        ("i32", 0, "1bool"),
        ("i32", 0, "1e5i32"),
        ("i32", 0, "1__2"),
        ("i32", 0, "_1"),
        ("i32", 0, ")"),
        ("i32", 0, "\u{7f}"),
        ("i32", 0, "\u{e9}"),
        ("i32", 0, "\u{85}"),
        ("i32", 1, "[1, 2, 3]"),
        ("i32", 1, "[]"),
        ("i32", 1, "[1,]"),
        ("i32", 1, "[,1]"),
        ("i32", 1, "[1 2]"),
        ("i32", 1, "[1i32, 2i64]"),
        ("i32", 1, "[1i64, 2]"),
        ("i32", 1, "[1, 2i64]"),
        ("i32", 1, "[1, 3000000000]"),
        ("i32", 1, "[3000000000]"),
        ("i32", 1, "['a', 'b']"),
        ("i32", 1, "[\"a\"]"),
        ("i32", 1, "[empty([0]i32)]"),
        ("i32", 1, "1"),
        ("i32", 1, "3000000000"),
        ("i32", 0, "[1]"),
        ("i32", 2, "[[1, 2], [3, 4]]"),
        ("i32", 2, "[[1, 2], [3]]"),
        ("i32", 2, "[[1], 2]"),
        ("i32", 2, "[1, [2]]"),
        ("i32", 2, "[[], [1]]"),
        ("i32", 2, "[[1], []]"),
        ("i32", 2, "[[], []]"),
        ("i32", 2, "[[1], [[2]]]"),
        ("i32", 2, "[[[1]]]"),
        ("i32", 2, "[[1]"),
        ("i32", 2, "[ [ 1 , 2 ] , [ 3 , 4 ] ] -- end"),
        ("i32", 2, "[[1,2],\n [3,4],\n [5]]"),
        ("i32", 3, "[[[1], [2]], [[3], [4]]]"),
        ("i32", 3, "[[[1, 2, 3]]]"),
        // Empty arrays.
        ("i32", 1, "empty([0]i32)"),
        ("i32", 2, "empty([0][3]i32)"),
        ("i32", 2, "empty([3][0]i32)"),
        ("i32", 2, "empty( [ 3 ] [ 0 ] i32 )"),
        ("i32", 2, "empty([3][0]i64)"),
        ("i32", 1, "empty([1]i32)"),
        ("i32", 1, "empty(i32)"),
        ("i32", 1, "empty([0]i33)"),
        ("i32", 1, "empty([0])"),
        ("i32", 1, "empty([_0]i32)"),
        ("i32", 1, "empty([0_]i32)"),
        ("i32", 1, "empty([x]i32)"),
        ("i32", 1, "empty([0 i32)"),
        ("i32", 1, "empty[0]i32"),
        ("i32", 1, "empty([0]i32"),
        ("i32", 1, "empty([99999999999999999999999]i32)"),
        ("i32", 1, "emptyx"),
        ("i32", 1, "-empty([0]i32)"),
        ("bool", 3, "empty([1][2][0]bool)"),
        // Strings.
        ("u8", 1, "\"hello\""),
        ("u8", 1, "\"h\\u00e9\""),
        ("u8", 1, "\"\""),
        ("u8", 1, "\"tab\\t nl\\n quote\\\" nul\\0\""),
        ("u8", 1, "\"héllo ✓ 😀\""),
        ("u8", 1, "\"abc"),
        ("u8", 1, "\"ab\nc\""),
        ("i8", 1, "\"abc\""),
        ("u8", 2, "\"abc\""),
        // Floats.
        ("f64", 0, "1"),
        ("f64", 0, "-0"),
        ("f64", 0, "-0.0"),
        ("f64", 0, "2.5"),
        ("f64", 0, "1e16"),
        ("f64", 0, "9999999999999998"),
        ("f64", 0, "1e-4"),
        ("f64", 0, "0.000099999"),
        ("f64", 0, "123456789012345678901234567890"),
        ("f64", 0, "0x1p-1074"),
        ("f64", 0, "0x1p-1075"),
        ("f64", 0, "0x1.8p3"),
        ("f64", 0, "0x.8p1"),
        ("f64", 0, "0x1.p0"),
        ("f64", 0, "0x.p1"),
        ("f64", 0, "0x1.8"),
        ("f64", 0, "0x1."),
        ("f64", 0, "0x1p"),
        ("f64", 0, "0x1p+_"),
        ("f64", 0, "0x1p-_"),
        ("f64", 0, "0x1p99999999999"),
        ("f64", 0, "0x1p-99999999999"),
        ("f64", 0, "0x1p-2060"),
        ("f64", 0, "0xfffffffffffffffffffffffffffffffp-2100"),
        // 2^1023 * 2^-2048: Rust's powi(2, -1024) is 0 (so is the product).
        ("f64", 0, HEX_2_1023_P_2048),
        ("f64", 0, "0x8p-1077"),
        // inf * 0: a NaN with the sign bit set, kept as it is.
        ("f64", 0, HEX_INF_TIMES_0),
        ("f32", 0, HEX_INF_TIMES_0),
        ("f16", 0, HEX_INF_TIMES_0),
        ("f64", 1, "[0x1p1, -0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffp-99999]"),
        ("f64", 0, "0x1e+5"),
        ("f64", 0, "0x1f32"),
        ("f64", 0, "0x10"),
        ("f64", 0, "0xffffffffffffffff"),
        ("f32", 0, "0xffffffffffffffff"),
        ("f16", 0, "0xffffffffffffffff"),
        ("f64", 0, "1e400"),
        ("f64", 0, "1e-400"),
        ("f64", 0, "4.9e-324"),
        ("f64", 0, "2.4703282292062328e-324"),
        ("f64", 0, "1.7976931348623157e308"),
        ("f64", 0, "1.7976931348623159e308"),
        ("f64", 0, "1."),
        ("f64", 0, "1._"),
        ("f64", 0, "1._e5"),
        ("f64", 0, "1e"),
        ("f64", 0, "1e+"),
        ("f64", 0, "1e_"),
        ("f64", 0, "-1e_"),
        ("f32", 0, "-1e_"),
        ("f16", 0, "-1e_"),
        ("f64", 0, "1e-"),
        ("f64", 0, "1.5.3"),
        ("f64", 0, ".5"),
        ("f64", 0, "1E5"),
        ("f64", 0, "1_0.2_5e1_0"),
        ("f64", 0, "1.5f64"),
        ("f64", 0, "1.5f32"),
        ("f64", 0, "1.5i32"),
        ("f64", 0, "f64.nan"),
        ("f64", 0, "-f64.nan"),
        ("f64", 0, "f64.inf"),
        ("f64", 0, "-f64.inf"),
        ("f64", 0, "f32.inf"),
        ("f64", 0, "f64.infinity"),
        ("f64", 0, "inf"),
        ("f64", 0, "nan"),
        ("f64", 0, "'a'"),
        ("f64", 0, "true"),
        (
            "f64",
            1,
            "[1, 2.5, -0.0, 1e16, 1e-5, 0.1, f64.nan, -f64.inf]",
        ),
        ("f64", 1, "[1f64, 2]"),
        ("f64", 1, "[1f32, 2]"),
        ("f64", 1, "[1, 2f32]"),
        ("f32", 0, "16777217"),
        ("f32", 0, "3.4028235e38"),
        ("f32", 0, "3.4028236e38"),
        ("f32", 0, "1e-45"),
        ("f32", 0, "0.1"),
        ("f32", 0, "2097152.25"),
        ("f32", 0, "2097152.75"),
        ("f32", 0, "-f32.nan"),
        ("f32", 1, "[f32.nan, f32.inf, -f32.inf, -0, 1e16, 9.99e15]"),
        ("f32", 2, "[[1f32, 2], [3, 4]]"),
        ("f16", 0, "0.1"),
        ("f16", 0, "65504"),
        ("f16", 0, "65520"),
        ("f16", 0, "6e-8"),
        ("f16", 0, "2.98e-8"),
        ("f16", 0, "-f16.nan"),
        ("f16", 0, "f16.inf"),
        (
            "f16",
            1,
            "[0.1, 1, 65504, 6e-8, -0, 1.0009765625, 0.00006103515625]",
        ),
        ("f16", 1, "[1f16, 2.5f16, 3]"),
        ("f16", 1, "[1f32]"),
        // Booleans.
        ("bool", 0, "true"),
        ("bool", 0, "false"),
        ("bool", 0, "1"),
        ("bool", 0, "3000000000"),
        ("bool", 0, "1.5"),
        ("bool", 1, "[true, false, true]"),
        ("bool", 1, "[true, 1]"),
        ("bool", 1, "[1, true]"),
        ("bool", 1, "[3000000000, true]"),
        ("bool", 2, "[[true], [false]]"),
        // Input shapes.
        ("i32", 0, ""),
        ("i32", 0, "   \n -- only a comment"),
        ("i32", 0, "1 -"),
        ("i32", 0, "1--x\n2"),
        ("i32", 0, "1-2"),
        ("i32", 0, "1\n\n  x"),
        ("i32", 0, "\u{e9}\u{e9}x"),
        ("i32", 0, "\u{e9}\n\u{e9}\u{e9}x"),
        ("i32", 0, "\t\r\x0c1"),
        ("i32", 0, "\x0b1"),
        ("i32", 0, "1\x00"),
        ("i32", 0, "1\u{ff}"),
    ];
    let mut failures = vec![];
    for &(t, rank, input) in cases {
        if let Err(e) = compare(&h.exe, ty(t), rank, input.as_bytes()) {
            failures.push(e);
        }
    }
    // Long words are quoted shortened.
    let long = format!("{}x", "1".repeat(60));
    if let Err(e) = compare(&h.exe, ty("i32"), 0, long.as_bytes()) {
        failures.push(e);
    }
    let long = format!("abc{}", "d".repeat(60));
    if let Err(e) = compare(&h.exe, ty("i32"), 0, long.as_bytes()) {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The printed forms of chosen scalars of every type (through the binary
/// format, so that any bit pattern can be given).
#[test]
fn hand_picked_scalars_printed() {
    let Some(h) = harness() else { return };
    let mut vs: Vec<Scalar> = vec![];
    for x in [i8::MIN, -1, 0, 1, i8::MAX] {
        vs.push(Scalar::I8(x));
    }
    for x in [i16::MIN, -1, 0, i16::MAX] {
        vs.push(Scalar::I16(x));
    }
    for x in [i32::MIN, -1, 0, i32::MAX] {
        vs.push(Scalar::I32(x));
    }
    for x in [i64::MIN, -1, 0, i64::MAX] {
        vs.push(Scalar::I64(x));
    }
    vs.extend([0, u8::MAX].map(Scalar::U8));
    vs.extend([0, u16::MAX].map(Scalar::U16));
    vs.extend([0, u32::MAX].map(Scalar::U32));
    vs.extend([0, u64::MAX].map(Scalar::U64));
    vs.extend([true, false].map(Scalar::Bool));
    for x in special_f64() {
        vs.push(Scalar::F64(x));
        vs.push(Scalar::F32(x as f32));
        vs.push(Scalar::F16(f16::from_f64(x)));
    }
    for bits in [
        0x7ff0_0000_0000_0001u64,
        0xfff8_0000_0000_0000,
        0x8000_0000_0000_0001,
    ] {
        vs.push(Scalar::F64(f64::from_bits(bits)));
    }
    for bits in [
        0x7f80_0001u32,
        0xffc0_0000,
        0x8000_0001,
        0x0000_0001,
        0x7f7f_ffff,
    ] {
        vs.push(Scalar::F32(f32::from_bits(bits)));
    }
    let mut failures = vec![];
    for s in vs {
        let v = Value::Scalar(s);
        check_printed(h, &v, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn special_f64() -> Vec<f64> {
    let mut xs = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.5,
        1.5,
        100.0,
        1e15,
        1e16,
        9999999999999998.0,
        1e16 - 2.0,
        1e17,
        1e-4,
        0.000099999,
        1e-5,
        1e-7,
        123456.789,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        1e-323,
        f64::from_bits(0x000f_ffff_ffff_ffff), // the largest subnormal
        f64::EPSILON,
        std::f64::consts::PI,
        std::f64::consts::E,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0 / 3.0,
        2.0 / 3.0,
        65504.0,
        65520.0,
        6e-8,
        3.4028235e38,
        1e-45,
        1.17549435e-38,
        16777217.0,
        9007199254740993.0,
        0.3,
        299792458.0,
        4.35,
        0.015625,
        1e21,
        1e22,
        1e23,
        5e-310,
    ];
    // Ties between two shortest candidates: Rust takes the upper one.
    for k in 0..8 {
        xs.push(1125899906842624.0 + 0.25 + k as f64 * 0.5);
        xs.push(2097152.0 + 0.25 + k as f64 * 0.5);
    }
    let more: Vec<f64> = xs.iter().map(|x| -x).collect();
    xs.extend(more);
    xs
}

/// Checks that C prints `v` (read from its binary form) as Rust does, and
/// writes the same binary form back; and that C reads Rust's text of it.
fn check_printed(h: &Harness, v: &Value, failures: &mut Vec<String>) {
    let (t, rank) = (v.elem_type(), v.rank());
    let mut bin = vec![];
    parad_values::write_binary(v, &mut bin);
    let want = text_of(std::slice::from_ref(v));
    match run_c(&h.exe, t, rank, "text", &bin) {
        Ok(got) if got == want.as_bytes() => {}
        got => failures.push(format!(
            "{}: C printed {:?}, Rust {want:?}",
            v.type_name(),
            got.map(|g| String::from_utf8_lossy(&g).into_owned())
        )),
    }
    match run_c(&h.exe, t, rank, "binary", &bin) {
        Ok(got) if got == bin => {}
        got => failures.push(format!("{}: binary round trip gave {got:?}", v.type_name())),
    }
    if let Err(e) = compare(&h.exe, t, rank, want.as_bytes()) {
        failures.push(e);
    }
}

/// After one value, the stream is positioned right after it (for callers
/// that read on from the FILE* themselves).
#[test]
fn stream_left_after_the_value() {
    let Some(h) = harness() else { return };
    let bin = {
        let mut b = vec![];
        parad_values::write_binary(&Value::Scalar(Scalar::I32(7)), &mut b);
        b
    };
    let cases: Vec<(&[u8], &str, &[u8])> = vec![
        (b"1 rest", "1i32\n", b" rest"),
        (b"  -- c\n 5i32\nnext", "5i32\n", b"\nnext"),
        (b"1i32-2i32", "1i32\n", b"-2i32"),
        (b"'a'x", "97i32\n", b"x"),
        (b"0x1fi32,", "31i32\n", b","),
    ];
    for (input, text, rest) in cases {
        let got = run_c(&h.exe, ty("i32"), 0, "one", input).unwrap();
        assert_eq!(got, [text.as_bytes(), rest].concat(), "{input:?}");
    }
    let got = run_c(&h.exe, ty("i32"), 1, "one", b"[1, 2]\nnext").unwrap();
    assert_eq!(got, b"[1i32, 2i32]\n\nnext");
    let got = run_c(&h.exe, ty("i32"), 1, "one", b"empty([0]i32)abc").unwrap();
    assert_eq!(got, b"empty([0]i32)\nabc");
    let got = run_c(&h.exe, ty("u8"), 1, "one", b"\"ab\"x").unwrap();
    assert_eq!(got, b"[97u8, 98u8]\nx");
    let got = run_c(&h.exe, ty("i32"), 0, "one", &[&bin[..], b"xyz"].concat()).unwrap();
    assert_eq!(got, b"7i32\nxyz");
}

// ---- exhaustive f16 and many random floats ------------------------------------

fn array(t: PrimType, shape: Vec<usize>, elems: Vec<Scalar>) -> Value {
    let mut data = ArrayData::empty(t);
    for s in elems {
        assert!(data.push(s));
    }
    Value::Array(ArrayValue::new(shape, data).unwrap())
}

/// Every f16 bit pattern printed as Rust prints it, and read back (text
/// and binary) as Rust reads it.
#[test]
fn every_f16() {
    let Some(h) = harness() else { return };
    let t = PrimType::Float(FloatType::F16);
    let elems: Vec<Scalar> = (0..=u16::MAX)
        .map(|b| Scalar::F16(f16::from_bits(b)))
        .collect();
    let v = array(t, vec![elems.len()], elems);
    compare_printed_array(h, &v);
}

/// Prints a large array through C from its binary form and compares it
/// element by element with Rust's text; then reads Rust's text back.
fn compare_printed_array(h: &Harness, v: &Value) {
    let (t, rank) = (v.elem_type(), v.rank());
    let mut bin = vec![];
    parad_values::write_binary(v, &mut bin);
    let want = text_of(std::slice::from_ref(v));
    let got = run_c(&h.exe, t, rank, "text", &bin).unwrap();
    let got = String::from_utf8(got).unwrap();
    if got != want {
        let bad: Vec<String> = got
            .trim_end()
            .trim_matches(['[', ']'])
            .split(", ")
            .zip(want.trim_end().trim_matches(['[', ']']).split(", "))
            .filter(|(a, b)| a != b)
            .take(20)
            .map(|(a, b)| format!("C {a} vs Rust {b}"))
            .collect();
        panic!("{} differences, e.g.:\n{}", bad.len(), bad.join("\n"));
    }
    let back = run_c(&h.exe, t, rank, "binary", want.as_bytes()).unwrap();
    let rust_back = parad_values::read_values(want.as_bytes()).unwrap();
    assert!(
        back == binary_of(&rust_back),
        "reading {t} text back differs"
    );
}

#[test]
fn random_float_bits() {
    let Some(h) = harness() else { return };
    let mut rng = StdRng::seed_from_u64(0x5eed_f10a7);
    let n = 100_000;
    let f32s: Vec<Scalar> = (0..n)
        .map(|i| {
            Scalar::F32(match i % 4 {
                0 => f32::from_bits(rng.gen()),
                1 => rng.gen_range(-1e6f32..1e6),
                2 => (rng.gen_range(-100_000i32..100_000) as f32) / 10f32.powi(rng.gen_range(0..8)),
                _ => {
                    (rng.gen_range(2_097_152u32..4_194_304) as f32)
                        + 0.25 * rng.gen_range(0..4) as f32
                }
            })
        })
        .collect();
    let f64s: Vec<Scalar> = (0..n)
        .map(|i| {
            Scalar::F64(match i % 4 {
                0 => f64::from_bits(rng.gen()),
                1 => rng.gen_range(-1e6f64..1e6),
                2 => {
                    (rng.gen_range(-1_000_000_000i64..1_000_000_000) as f64)
                        / 10f64.powi(rng.gen_range(0..20))
                }
                _ => {
                    (rng.gen_range(1u64 << 50..1u64 << 51) as f64)
                        + 0.25 * rng.gen_range(0..4) as f64
                }
            })
        })
        .collect();
    compare_printed_array(h, &array(PrimType::Float(FloatType::F32), vec![n], f32s));
    compare_printed_array(h, &array(PrimType::Float(FloatType::F64), vec![n], f64s));
}

// ---- random values of every type and rank -------------------------------------

fn random_scalar(t: PrimType, rng: &mut StdRng) -> Scalar {
    let special = rng.gen_range(0..4) == 0;
    match t {
        PrimType::Int(it) => {
            let (lo, hi) = it.bounds();
            let v: i128 = match rng.gen_range(0..4) {
                0 if special => [lo, hi, 0, -1, 1][rng.gen_range(0..5)],
                1 => rng.gen_range(-300..300),
                _ => (rng.gen::<u64>() >> rng.gen_range(0..64)) as i64 as i128,
            };
            Scalar::from_int(it, v)
        }
        PrimType::Float(ft) => {
            let specials = special_f64();
            let x = match rng.gen_range(0..4) {
                0 => specials[rng.gen_range(0..specials.len())],
                1 => rng.gen_range(-1000.0..1000.0),
                2 => rng.gen_range(-1000i64..1000) as f64 / 8.0,
                _ => f64::from_bits(rng.gen()),
            };
            match ft {
                FloatType::F16 if rng.gen() => Scalar::F16(f16::from_bits(rng.gen())),
                FloatType::F32 if rng.gen() => Scalar::F32(f32::from_bits(rng.gen())),
                _ => Scalar::from_float(ft, x),
            }
        }
        PrimType::Bool => Scalar::Bool(rng.gen()),
    }
}

fn random_value(t: PrimType, rank: usize, rng: &mut StdRng) -> Value {
    if rank == 0 {
        return Value::Scalar(random_scalar(t, rng));
    }
    let shape: Vec<usize> = (0..rank)
        .map(|_| {
            if rng.gen_range(0..8) == 0 {
                0
            } else {
                rng.gen_range(1..5)
            }
        })
        .collect();
    let n = shape.iter().product();
    let elems = (0..n).map(|_| random_scalar(t, rng)).collect();
    array(t, shape, elems)
}

/// Random values of every type and rank 0 to 3: Rust's text and binary
/// forms read by C (many values in one input) and printed back the same.
#[test]
fn random_values_round_trip() {
    let Some(h) = harness() else { return };
    let mut rng = StdRng::seed_from_u64(42);
    for t in all_types() {
        for rank in 0..=3 {
            let vs: Vec<Value> = (0..60).map(|_| random_value(t, rank, &mut rng)).collect();
            // Text: Rust's text, read by both.
            let text = text_of(&vs);
            if let Err(e) = compare(&h.exe, t, rank, text.as_bytes()) {
                panic!("{e}");
            }
            // Binary: the exact bits come back, and the text is Rust's.
            let bin = binary_of(&vs);
            let got = run_c(&h.exe, t, rank, "binary", &bin).unwrap();
            assert!(got == bin, "{t} rank {rank}: binary round trip differs");
            let got = run_c(&h.exe, t, rank, "text", &bin).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), text, "{t} rank {rank}");
            // The in-memory parser, on the same bytes.
            let got = run_c(&h.exe, t, rank, "get", &bin).unwrap();
            assert!(got == bin, "{t} rank {rank}: pv_binary_get/put differ");
            // Text and binary values mixed in one input.
            let mut mixed = vec![];
            for (i, v) in vs.iter().enumerate().take(10) {
                if i % 2 == 0 {
                    parad_values::write_binary(v, &mut mixed);
                } else {
                    mixed.extend_from_slice(
                        format!(" {} -- c\n", parad_values::to_text(v)).as_bytes(),
                    );
                }
            }
            if let Err(e) = compare(&h.exe, t, rank, &mixed) {
                panic!("{e}");
            }
        }
    }
}

/// A random digit string of a length in `len` from `alphabet`, with `_`.
fn digits(rng: &mut StdRng, alphabet: &[u8], len: std::ops::Range<usize>) -> String {
    let n = rng.gen_range(len);
    (0..n)
        .map(|i| {
            if i > 0 && rng.gen_range(0..6) == 0 {
                '_'
            } else {
                alphabet[rng.gen_range(0..alphabet.len())] as char
            }
        })
        .collect()
}

/// A random literal in any of the syntaxes the reader knows.
fn random_literal(rng: &mut StdRng) -> String {
    let dec = b"0123456789";
    let hex = b"0123456789abcdefABCDEF";
    let mut s = String::new();
    if rng.gen_range(0..3) == 0 {
        s.push('-');
    }
    let n = rng.gen_range(1..22);
    match rng.gen_range(0..9) {
        0 | 1 => s += &digits(rng, dec, n..n + 1),
        2 => {
            s += &digits(rng, dec, n..n + 1);
            s.push('.');
            s += &digits(rng, dec, 1..8);
        }
        3 => {
            s += &digits(rng, dec, 1..4);
            if rng.gen() {
                s.push('.');
                s += &digits(rng, dec, 1..4);
            }
            s.push(['e', 'E'][rng.gen_range(0..2)]);
            s += ["", "+", "-"][rng.gen_range(0..3)];
            s += &digits(rng, dec, 1..4);
        }
        4 => {
            s += ["0x", "0X"][rng.gen_range(0..2)];
            s += &digits(rng, hex, 1..19);
        }
        5 => {
            s += "0x";
            s += &digits(rng, hex, 1..6);
            if rng.gen() {
                s.push('.');
                s += &digits(rng, hex, 0..6);
            }
            s.push('p');
            s += ["", "+", "-"][rng.gen_range(0..3)];
            s += &digits(rng, dec, 1..5);
        }
        6 => {
            s += "0b";
            s += &digits(rng, b"01", 1..70);
        }
        7 => {
            s += [
                "f16.nan", "f32.inf", "f64.nan", "f64.inf", "true", "false", "'a'", "'\\n'", "'é'",
            ][rng.gen_range(0..9)]
        }
        _ => {
            let x = f64::from_bits(rng.gen());
            s += &format!("{:?}", x.abs());
        }
    }
    if rng.gen_range(0..3) == 0 {
        let t = PrimType::all().nth(rng.gen_range(0..12)).unwrap();
        s += t.name();
    }
    s
}

/// Random literals, untyped and typed, as scalars and in arrays, read at
/// every type.
#[test]
fn random_literals() {
    let Some(h) = harness() else { return };
    let mut rng = StdRng::seed_from_u64(7);
    let mut failures = vec![];
    let mut accepted = 0;
    for round in 0..500 {
        let t = PrimType::all().nth(round % 12).unwrap();
        let input = if round % 3 == 0 {
            let n = rng.gen_range(1..4);
            let elems: Vec<String> = (0..n).map(|_| random_literal(&mut rng)).collect();
            format!("[{}]", elems.join(", "))
        } else {
            random_literal(&mut rng)
        };
        let rank = usize::from(input.starts_with('['));
        match compare(&h.exe, t, rank, input.as_bytes()) {
            Ok(ok) => accepted += usize::from(ok),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!((100..400).contains(&accepted), "{accepted} of 500 accepted");
}

// ---- garbage -------------------------------------------------------------------

/// Mutates a valid input: deletes, inserts, replaces or truncates.
fn mutate(input: &[u8], rng: &mut StdRng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"[],-_.e+0x1p9if3264utrue\"'\\ \n-b\x02\xff\xc3\xa9()empty";
    let mut v = input.to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let at = rng.gen_range(0..=v.len());
        match rng.gen_range(0..5) {
            0 if at < v.len() => {
                let end = rng.gen_range(at..=v.len().min(at + 4));
                v.drain(at..end);
            }
            1 => v.insert(at, ALPHABET[rng.gen_range(0..ALPHABET.len())]),
            2 if at < v.len() => v[at] = rng.gen(),
            3 => v.truncate(at),
            _ if at < v.len() => v[at] = ALPHABET[rng.gen_range(0..ALPHABET.len())],
            _ => {}
        }
    }
    v
}

#[test]
fn garbage_is_an_error_never_a_crash() {
    let Some(h) = harness() else { return };
    let exe = h.san.as_ref().unwrap_or(&h.exe);
    let mut rng = StdRng::seed_from_u64(99);
    let mut failures = vec![];
    let (mut accepted, mut rounds) = (0, 0);
    for round in 0..1500 {
        let t = PrimType::all().nth(round % 12).unwrap();
        let rank = rng.gen_range(0..=3);
        let v = random_value(t, rank, &mut rng);
        let valid = if round % 2 == 0 {
            parad_values::to_text(&v).into_bytes()
        } else {
            let mut b = vec![];
            parad_values::write_binary(&v, &mut b);
            b
        };
        let input = mutate(&valid, &mut rng);
        if input.starts_with(&[0x1f, 0x8b]) {
            continue; // gzip: the Rust reader decompresses, values.h does not
        }
        // Either type may be expected: the value's own, or another.
        let (t, rank) = if rng.gen_range(0..4) == 0 {
            (
                PrimType::all().nth(rng.gen_range(0..12)).unwrap(),
                rng.gen_range(0..=3),
            )
        } else {
            (t, rank)
        };
        rounds += 1;
        match compare(exe, t, rank, &input) {
            Ok(ok) => accepted += usize::from(ok),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        accepted > 20 && accepted < rounds / 2,
        "{accepted} of {rounds} accepted"
    );
}

/// Binary values that are truncated, claim absurd sizes, or have the
/// wrong type, rank, version or bool bytes.
#[test]
fn bad_binary() {
    let Some(h) = harness() else { return };
    let exe = h.san.as_ref().unwrap_or(&h.exe);
    let header = |rank: u8, name: &[u8; 4], dims: &[i64]| {
        let mut b = vec![b'b', 2, rank];
        b.extend_from_slice(name);
        for d in dims {
            b.extend_from_slice(&d.to_le_bytes());
        }
        b
    };
    let mut cases: Vec<(PrimType, usize, Vec<u8>)> = vec![
        (ty("i32"), 0, b"b".to_vec()),
        (ty("i32"), 0, b"b\x02\x00 i3".to_vec()),
        (ty("i32"), 0, header(0, b" i32", &[])),
        (ty("i32"), 0, [header(0, b" i32", &[]), vec![1, 2]].concat()),
        (ty("i32"), 0, b"b\x01\x00 i32\x01\x00\x00\x00".to_vec()),
        (ty("i32"), 0, b"b\x02\x00 i33\x01\x00\x00\x00".to_vec()),
        (
            ty("i32"),
            0,
            b"b\x02\x00\"\\\n\xff\x01\x00\x00\x00".to_vec(),
        ),
        (ty("i32"), 0, [header(0, b" i64", &[]), vec![0; 8]].concat()),
        (ty("i32"), 1, [header(0, b" i32", &[]), vec![0; 4]].concat()),
        (ty("i32"), 1, header(1, b" i32", &[])),
        (
            ty("i32"),
            1,
            [header(1, b" i32", &[]), vec![1, 0, 0]].concat(),
        ),
        (ty("i32"), 1, header(1, b" i32", &[-1])),
        (ty("i32"), 1, header(1, b" i32", &[3])),
        (
            ty("i32"),
            1,
            [header(1, b" i32", &[3]), vec![0; 11]].concat(),
        ),
        (ty("i32"), 1, [header(1, b" i32", &[0]), vec![]].concat()),
        (ty("i64"), 1, header(1, b" i64", &[1 << 61])),
        (ty("i64"), 1, header(1, b" i64", &[1 << 60])),
        (ty("u8"), 1, header(1, b"  u8", &[1 << 50])),
        (ty("u8"), 2, header(2, b"  u8", &[i64::MAX, i64::MAX])),
        (ty("u8"), 3, header(3, b"  u8", &[1 << 40, 1 << 40, 0])),
        (
            ty("bool"),
            1,
            [header(1, b"bool", &[3]), vec![0, 1, 2]].concat(),
        ),
        (
            ty("bool"),
            1,
            [header(1, b"bool", &[3]), vec![0, 1]].concat(),
        ),
        (ty("bool"), 0, [header(0, b"bool", &[]), vec![7]].concat()),
        (
            ty("f16"),
            1,
            [header(1, b" f16", &[2]), vec![0, 0x7c, 0, 0xfc]].concat(),
        ),
        (
            ty("f16"),
            1,
            [header(1, b" f16", &[2]), vec![0, 0x7c, 0]].concat(),
        ),
    ];
    // Binary values among text (not for the in-memory parser).
    let mixed: Vec<(PrimType, usize, Vec<u8>)> = vec![
        (
            ty("i32"),
            0,
            [header(0, b" i32", &[]), vec![0; 4], b" x".to_vec()].concat(),
        ),
        (
            ty("i32"),
            0,
            [b"1 ".to_vec(), header(0, b" i32", &[]), vec![0; 2]].concat(),
        ),
        (
            ty("i32"),
            0,
            [b"1 ".to_vec(), header(0, b" i32", &[]), vec![0; 4]].concat(),
        ),
    ];
    // A bool error in a later chunk, and truncation in a later chunk.
    let n = 200_000i64;
    let mut big = [header(1, b"bool", &[n]), vec![1; n as usize]].concat();
    big[7 + 8 + 150_000] = 9;
    cases.push((ty("bool"), 1, big.clone()));
    big.truncate(7 + 8 + 140_000);
    cases.push((ty("bool"), 1, big));
    let mut failures = vec![];
    for (t, rank, input) in &cases {
        if let Err(e) = compare(exe, *t, *rank, input) {
            failures.push(e);
        }
        // The in-memory parser: Rust's in-memory reader is its model.
        if input.starts_with(b"b") {
            let got = run_exe(exe, &[&pv(*t).to_string(), &rank.to_string(), "get"], input)
                .unwrap_or_else(|e| panic!("{e}"));
            let want = parad_values::read_values(input);
            match (&got, &want) {
                (Ok(a), Ok(vs)) if vs.iter().all(|v| v.rank() == *rank && v.elem_type() == *t) => {
                    if a != input {
                        failures.push(format!("get {input:?}: output differs"));
                    }
                }
                (Err(m), Err(e)) if *m == e.to_string() || is_type_message(m, *t, *rank) => {}
                (Err(m), Ok(_)) if is_type_message(m, *t, *rank) => {}
                _ => failures.push(format!("get {input:?}: C {got:?}, Rust {want:?}")),
            }
        }
    }
    for (t, rank, input) in &mixed {
        if let Err(e) = compare(exe, *t, *rank, input) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
