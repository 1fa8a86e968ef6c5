//! The printer's round trip: for a program `p` that our parser accepts,
//! `parse(print::program(p))` has the same S-expression rendering as `p`,
//! declaration by declaration. Checked over every `.fut` file of the
//! repository's `tests/` and `benchmarks/` folders, and with exact expected
//! text for small programs.
//!
//! `PARAD_ROUNDTRIP_DIR=DIR cargo test -p parad-syntax --test print_roundtrip
//! -- --ignored` runs the check over another folder and lists every file
//! that fails.

use parad_base::FileId;
use parad_syntax::{parse, parse_exp, parse_type, print, sexp};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
}

/// Line and column (from 1) of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

/// `Ok(true)`: the source parses and round-trips; `Ok(false)`: our parser
/// rejects the source; `Err`: the printed text does not parse back to the
/// same tree, with the printed text or the two renderings.
fn round_trip(src: &str) -> Result<bool, String> {
    let Ok(p) = parse(FileId(0), src) else {
        return Ok(false);
    };
    let printed = print::program(&p);
    let q = match parse(FileId(0), &printed) {
        Ok(q) => q,
        Err(d) => {
            let (l, c) = line_col(&printed, d.span.map_or(0, |s| s.start as usize));
            return Err(format!(
                "the printed program does not parse: {l}:{c}: {}\n--- printed ---\n{printed}",
                d.message
            ));
        }
    };
    if p.decls.len() != q.decls.len() {
        return Err(format!(
            "{} declarations became {}\n--- printed ---\n{printed}",
            p.decls.len(),
            q.decls.len()
        ));
    }
    for (a, b) in p.decls.iter().zip(&q.decls) {
        let (a, b) = (sexp::decl(a), sexp::decl(b));
        if a != b {
            return Err(format!(
                "a declaration changed\n--- parsed ---\n{a}\n--- reparsed ---\n{b}\n--- printed ---\n{printed}"
            ));
        }
    }
    Ok(true)
}

/// Round-trips every file below `dirs`; returns (parsed, round-tripped)
/// counts and the failures.
fn check_dirs(dirs: &[PathBuf]) -> (usize, usize, Vec<(PathBuf, String)>) {
    let mut files = vec![];
    for d in dirs {
        collect(d, &mut files);
    }
    files.sort();
    let (mut parsed, mut ok, mut failed) = (0, 0, vec![]);
    for f in files {
        let Ok(src) = std::fs::read_to_string(&f) else {
            continue;
        };
        match round_trip(&src) {
            Ok(true) => {
                parsed += 1;
                ok += 1;
            }
            Ok(false) => {}
            Err(msg) => {
                parsed += 1;
                failed.push((f, msg));
            }
        }
    }
    (parsed, ok, failed)
}

#[test]
fn repository_programs_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (parsed, ok, failed) = check_dirs(&[root.join("tests"), root.join("benchmarks")]);
    assert!(parsed > 100, "only {parsed} programs found");
    if let Some((f, msg)) = failed.first() {
        panic!(
            "{} of {parsed} programs do not round-trip; the first is {}:\n{msg}",
            failed.len(),
            f.display()
        );
    }
    assert_eq!(ok, parsed);
}

/// An ad hoc check of another folder, named by `PARAD_ROUNDTRIP_DIR`.
#[test]
#[ignore]
fn folder_round_trips() {
    let Ok(dir) = std::env::var("PARAD_ROUNDTRIP_DIR") else {
        return;
    };
    let (parsed, ok, failed) = check_dirs(&[PathBuf::from(dir)]);
    for (f, msg) in &failed {
        let first: String = msg.lines().take(12).collect::<Vec<_>>().join("\n");
        println!("FAIL {}: {first}\n", f.display());
    }
    println!("round-tripped {ok} of {parsed} parsed programs");
    assert!(failed.is_empty());
}

// ───────────── exact output ─────────────

fn prog(src: &str) -> String {
    let p = parse(FileId(0), src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    let out = print::program(&p);
    assert_eq!(round_trip(src), Ok(true), "{src}");
    out
}

#[track_caller]
fn check_exp(src: &str, expected: &str) {
    let e = parse_exp(FileId(0), src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    let printed = print::exp(&e);
    assert_eq!(printed, expected, "source: {src}");
    let again = parse_exp(FileId(0), &printed)
        .unwrap_or_else(|d| panic!("printed {printed}: {}", d.message));
    assert_eq!(sexp::exp(&again), sexp::exp(&e), "source: {src}");
}

#[track_caller]
fn check_ty(src: &str, expected: &str) {
    let t = parse_type(FileId(0), src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    let printed = print::type_exp(&t);
    assert_eq!(printed, expected, "source: {src}");
    let again = parse_type(FileId(0), &printed)
        .unwrap_or_else(|d| panic!("printed {printed}: {}", d.message));
    assert_eq!(sexp::type_exp(&again), sexp::type_exp(&t), "source: {src}");
}

#[test]
fn operators_and_parentheses() {
    check_exp("(a + b) * c", "(a + b) * c");
    check_exp("a + (b * c)", "a + b * c");
    check_exp("(a - b) - c", "a - b - c");
    check_exp("a - (b - c)", "a - (b - c)");
    check_exp("f (g x)", "f (g x)");
    check_exp("(f x) y", "(f x) y");
    check_exp("-(x)", "-x");
    check_exp("-(a + b)", "-(a + b)");
    check_exp("- (-x)", "-(-x)");
    check_exp("!(-x)", "!(-x)");
    check_exp("(-1)", "-1");
    check_exp("f (-1) x", "f (-1) x");
    check_exp("a * -b", "a * -b");
    check_exp("x |> f |> g", "x |> f |> g");
    check_exp("f <| g <| x", "f <| g <| x");
    check_exp("(f <| g) <| x", "(f <| g) <| x");
    check_exp("a `max` b + c", "a `max` b + c");
    check_exp("(a `max` b) + c", "(a `max` b) + c");
    check_exp("a f32.+ b", "a f32.+ b");
    check_exp("a ** b ** c", "a ** b ** c");
    check_exp("(a && b) || !c", "a && b || !c");
    check_exp("(x : i32) + 1", "(x : i32) + 1");
    check_exp("x :> [n]i32", "x :> [n]i32");
    check_exp("(xs, ys).0", "(xs, ys).0");
    check_exp("(f x)[i:j, ::-1].1", "(f x)[i:j, ::-1].1");
    check_exp("t.0.1", "t.0.1");
}

#[test]
fn lambdas_and_sections() {
    check_exp(
        "map (\\x -> x + 1) xs",
        "map (\\x -> x + 1) xs",
    );
    check_exp("map (\\x -> x + 1) xs", "map (\\x -> x + 1) xs");
    check_exp("f x \\y -> y", "f x (\\y -> y)");
    check_exp("\\(x: i32) : i32 -> x", "\\(x : i32) : i32 -> x");
    check_exp("reduce (+) 0 xs", "reduce (+) 0 xs");
    check_exp("(+ 1)", "(+ 1)");
    check_exp("(1 +)", "(1 +)");
    check_exp("(`f` x)", "(`f` x)");
    check_exp("(x `f`)", "(x `f`)");
    check_exp("(f32.+)", "(f32.+)");
    check_exp("(.x.[i])", "(.x.[i])");
    check_exp("(.0)", "(.0)");
    check_exp("(-)", "(-)");
}

#[test]
fn keyword_forms_that_extend_right() {
    check_exp("(if c then a else b) + 1", "(if c then a else b) + 1");
    check_exp("1 + if c then a else b", "1 + if c then a else b");
    check_exp("(1 + if c then a else b) * 2", "(1 + if c then a else b) * 2");
    check_exp("(1 + if c then a else b) + 2", "1 + (if c then a else b) + 2");
    check_exp("(\\x -> x) y", "(\\x -> x) y");
    check_exp("-(\\x -> x) y", "-(\\x -> x) y");
    check_exp(
        "match x case 1 -> (match y case _ -> 2) case _ -> 3",
        "match x\ncase 1 -> (match y\n          case _ -> 2)\ncase _ -> 3",
    );
    check_exp(
        "a[if c then 0 else 1:n]",
        "a[(if c then 0 else 1):n]",
    );
    check_exp("#[unroll] loop x = 0 for i < n do x + i", "#[unroll] loop x = 0 for i < n do\n            x + i");
}

#[test]
fn literals() {
    check_exp("1i8 + 2u64 + 3f32 + 0xffi32", "1i8 + 2u64 + 3f32 + 255i32");
    check_exp("1.5f32 + 1e-7 + 0x1.8p1 + 2.0", "1.5f32 + 1e-7 + 3.0 + 2.0");
    check_exp("'a' + '\\n' + '\\''", "'a' + '\\n' + '\\''");
    check_exp(
        "\"tab\\there \\\"q\\\" \\\\ é\"",
        "\"tab\\there \\\"q\\\" \\\\ é\"",
    );
    check_exp("[true, false]", "[true, false]");
    check_exp("(1,)", "(1,)");
    check_exp("{x = 1, y}", "{x = 1, y}");
    check_exp("???", "???");
    check_exp("#some 1 (#none)", "#some 1 #none");
    check_exp("f32.(x + pi)", "f32.(x + pi)");
    check_exp("0..<n", "0..<n");
    check_exp("0..2...n", "0..2...n");
}

#[test]
fn updates() {
    check_exp("a with [i] = 1 + 2", "a with [i] = 1 + 2");
    check_exp("(a with [i] = 1) with [j] = 2", "a with [i] = 1 with [j] = 2");
    check_exp("r with x.y = 1", "r with x.y = 1");
    check_exp(
        "a with [i].x = v",
        "a with [i] = (a[i] with x = v)",
    );
    check_exp(
        "let a[i] = v in a",
        "let a = a with [i] = v\nin a",
    );
}

#[test]
fn types() {
    check_ty("[n]f32", "[n]f32");
    check_ty("*[]i32 -> (i32 -> i32) -> bool", "*[]i32 -> (i32 -> i32) -> bool");
    check_ty("(x: i64) -> [x]f32", "(x: i64) -> [x]f32");
    check_ty("#some (i32, f32) | #none", "#some (i32, f32) | #none");
    check_ty("#c [n]i32 (opt i32)", "#c [n]i32 (opt i32)");
    check_ty("?[n][m].([n]i32, [m]i32)", "?[n][m].([n]i32, [m]i32)");
    check_ty("(?[n].[n]i32) -> i32", "(?[n].[n]i32) -> i32");
    check_ty("pt [n] t", "pt [n] t");
    check_ty("opt ([n]i32)", "opt ([n]i32)");
    check_ty("{x: f32, y: [3]i32}", "{x: f32, y: [3]i32}");
}

#[test]
fn declarations() {
    assert_eq!(
        prog("def f [n] 'a (x: [n]a) (y: i32): [n]a = let z = y + 1 let w = z in x"),
        "def f [n] 'a (x : [n]a) (y : i32) : [n]a =\n  let z = y + 1\n  let w = z\n  in x\n"
    );
    assert_eq!(
        prog("def x +++ y = x + y\nentry main (xs: []i32) = reduce (+++) 0 xs"),
        "def (+++) x y = x + y\n\nentry main (xs : []i32) = reduce (+++) 0 xs\n"
    );
    assert_eq!(
        prog("-- | Doc.\n#[inline] def g (#c x) = x\ntype~ t 'a = ?[n].[n]a"),
        "-- | Doc.\n#[inline]\ndef g (#c x) = x\n\ntype~ t 'a = ?[n].[n]a\n"
    );
    assert_eq!(
        prog(
            "module type mt = { type t val f: t -> t }\n\
             module m (p: mt) : mt with t = p.t = { type t = p.t def f = p.f }\n\
             local open m\nimport \"lib\""
        ),
        "module type mt = {\n  type t\n  val f : t -> t\n}\n\n\
         module m (p: mt) : mt with t = p.t = {\n  type t = p.t\n\n  def f = p.f\n}\n\n\
         local open m\n\nimport \"lib\"\n"
    );
    assert_eq!(
        prog("def f x = match x case #a y -> y case (z: i32 -> i32) -> 0"),
        "def f x =\n  match x\n  case #a y -> y\n  case (z : i32 -> i32) -> 0\n"
    );
}
