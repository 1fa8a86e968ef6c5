//! `parad dataset`: generation with types, literals, bounds, seeds and
//! formats in command-line order; conversion of standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dataset(args: &[&str], stdin: &[u8]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_parad"))
        .arg("dataset")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(stdin).unwrap();
    c.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn values(o: &Output) -> Vec<parad_values::Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    parad_values::read_values_from(&o.stdout[..], &[]).unwrap()
}

#[test]
fn types_shapes_and_literals() {
    let vs = values(&dataset(
        &[
            "-g",
            "[4][2]i32",
            "-g",
            "f64",
            "-g",
            "10i64",
            "-g",
            "[0]bool",
        ],
        b"",
    ));
    let types: Vec<String> = vs.iter().map(|v| v.type_name()).collect();
    assert_eq!(types, ["[4][2]i32", "f64", "i64", "[0]bool"]);
    assert_eq!(parad_values::to_text(&vs[2]), "10i64");
}

#[test]
fn bounds_apply_to_later_generators() {
    let vs = values(&dataset(
        &[
            "-g",
            "[50]i64",
            "--i64-bounds=3:5",
            "-g",
            "[200]i64",
            "--f32-bounds=-2:-1",
            "-g",
            "[200]f32",
        ],
        b"",
    ));
    let ints = |v: &parad_values::Value| -> Vec<i64> {
        match v {
            parad_values::Value::Array(a) => match &a.data {
                parad_values::ArrayData::I64(x) => x.clone(),
                _ => panic!(),
            },
            _ => panic!(),
        }
    };
    // The default range is the whole of i64.
    assert!(ints(&vs[0]).iter().any(|&x| !(0..10).contains(&x)));
    let b = ints(&vs[1]);
    assert!(b.iter().all(|&x| (3..=5).contains(&x)), "{b:?}");
    assert!(
        [3, 4, 5].iter().all(|k| b.contains(k)),
        "every value in range appears"
    );
    match &vs[2] {
        parad_values::Value::Array(a) => match &a.data {
            parad_values::ArrayData::F32(x) => {
                assert!(x.iter().all(|&f| (-2.0..=-1.0).contains(&f)))
            }
            _ => panic!(),
        },
        _ => panic!(),
    }
}

#[test]
fn seeds_are_deterministic() {
    let a = text(&dataset(&["-s", "7", "-g", "[5]f64"], b""));
    assert_eq!(a, text(&dataset(&["-s", "7", "-g", "[5]f64"], b"")));
    assert_ne!(a, text(&dataset(&["-s", "8", "-g", "[5]f64"], b"")));
}

#[test]
fn formats_in_order_and_conversion() {
    // Text, then binary for what follows.
    let o = dataset(&["-g", "1i8", "-b", "-g", "[2]u8"], b"");
    assert!(o.status.success());
    assert!(o.stdout.starts_with(b"1i8\n"));
    assert_eq!(o.stdout[4], b'b', "binary values start with 'b'");
    // Standard input converted: text to binary and back, and types.
    let bin = dataset(&["-b"], b"[1, 2] 3.5f32 true");
    assert!(bin.status.success() && bin.stdout[0] == b'b');
    assert_eq!(
        text(&dataset(&[], &bin.stdout)),
        "[1i32, 2i32]\n3.5f32\ntrue\n"
    );
    assert_eq!(text(&dataset(&["-t"], b"[[1.0]] 2u16")), "[1][1]f64\nu16\n");
}

#[test]
fn errors_are_clear() {
    for (args, msg) in [
        (
            vec!["--i8-bounds=5:1", "-g", "i8"],
            "lower bound 5 is above the upper bound 1",
        ),
        (
            vec!["--u8-bounds=0:300", "-g", "u8"],
            "out of the range of u8",
        ),
        (vec!["-g", "[2]bogus"], "unknown primitive type"),
        (vec!["-s", "x"], "invalid value"),
    ] {
        let o = dataset(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
    let o = dataset(&[], b"[1, 2");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid input on standard input"));
}
