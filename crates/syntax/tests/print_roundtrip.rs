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
    if let Some(difference) = sexp::first_difference(&p, &q) {
        return Err(format!("{difference}\n--- printed ---\n{printed}"));
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

/// Every pair of operators, grouped both ways, keeps its grouping: the
/// printer's precedence table agrees with the parser's.
#[test]
fn operator_pairs_keep_their_grouping() {
    let mut ops: Vec<&str> = OPS.to_vec();
    ops.extend([
        "<=<", ">>=", "|>>", "<||", "&&&", "==>", "!=>", "***", "%", "-|", "`M.g`",
    ]);
    let mut n = 0;
    for o1 in &ops {
        for o2 in &ops {
            for src in [
                format!("(a {o1} b) {o2} c"),
                format!("a {o1} (b {o2} c)"),
                format!("-(a {o1} b) {o2} !c"),
            ] {
                let e =
                    parse_exp(FileId(0), &src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
                let printed = print::exp(&e);
                let again = parse_exp(FileId(0), &printed)
                    .unwrap_or_else(|d| panic!("{src} printed as {printed}: {}", d.message));
                assert_eq!(
                    sexp::exp(&again),
                    sexp::exp(&e),
                    "{src} printed as {printed}"
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 3 * ops.len() * ops.len());
}

#[test]
fn lambdas_and_sections() {
    check_exp("map (\\x -> x + 1) xs", "map (\\x -> x + 1) xs");
    check_exp("map (\\x -> x + 1) xs", "map (\\x -> x + 1) xs");
    check_exp("f x \\y -> y", "f x (\\y -> y)");
    check_exp("\\(x: i32) : i32 -> x", "\\(x: i32) : i32 -> x");
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
    check_exp(
        "(1 + if c then a else b) * 2",
        "(1 + if c then a else b) * 2",
    );
    check_exp(
        "(1 + if c then a else b) + 2",
        "1 + (if c then a else b) + 2",
    );
    check_exp("(\\x -> x) y", "(\\x -> x) y");
    check_exp("-(\\x -> x) y", "-(\\x -> x) y");
    check_exp(
        "match x case 1 -> (match y case _ -> 2) case _ -> 3",
        "match x\ncase 1 -> (match y\n           case _ -> 2)\ncase _ -> 3",
    );
    check_exp("a[(if c then 0 else 1):n]", "a[(if c then 0 else 1):n]");
    // The `: n` here is an ascription inside the `else` branch.
    check_exp("a[if c then 0 else 1:n]", "a[if c then 0 else 1 : n]");
    check_exp(
        "#[unroll] loop x = 0 for i < n do x + i",
        "#[unroll] loop x = 0 for i < n do\n            x + i",
    );
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
    check_exp(
        "(a with [i] = 1) with [j] = 2",
        "a with [i] = 1 with [j] = 2",
    );
    check_exp("r with x.y = 1", "r with x.y = 1");
    check_exp("a with [i].x = v", "a with [i] = (a[i] with x = v)");
    check_exp("let a[i] = v in a", "let a = a with [i] = v\nin a");
}

#[test]
fn types() {
    check_ty("[n]f32", "[n]f32");
    check_ty(
        "*[]i32 -> (i32 -> i32) -> bool",
        "*[]i32 -> (i32 -> i32) -> bool",
    );
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
        "def f [n] 'a (x: [n]a) (y: i32) : [n]a =\n  let z = y + 1\n  let w = z\n  in x\n"
    );
    assert_eq!(
        prog("def x +++ y = x + y\nentry main (xs: []i32) = reduce (+++) 0 xs"),
        "def (+++) x y = x + y\n\nentry main (xs: []i32) = reduce (+++) 0 xs\n"
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
        "def f x =\n  match x\n  case #a y -> y\n  case (z: i32 -> i32) -> 0\n"
    );
}

// ───────────── random programs ─────────────

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const ATOMS: &[&str] = &[
    "x", "1", "2.5f32", "'c'", "\"s\\n\"", "#c", "???", "(+)", "(.x)", "(.[0])", "t.0", "r.x",
    "M.(x)", "[]", "()", "true", "-1", "f32.sqrt", "(`f`)", "1e-3", "0xffu8",
];

const OPS: &[&str] = &[
    "+", "-", "*", "/", "**", "==", "!=", "<", "<=", "&&", "||", "|>", "<|", "`f`", "f32.+", ">>",
    "&", "^", "|", "%%", "//", "<<", "!==", "+.",
];

const PATS: &[&str] = &[
    "x",
    "_",
    "(a, b)",
    "{x, y = z}",
    "(x: i32)",
    "#c y",
    "(#c y: t)",
    "#[a] x",
    "(x: [n]i32)",
];

/// A random expression of about `depth` levels: not always one our parser
/// accepts; those that parse are checked.
fn gen_exp(r: &mut Rng, depth: u32) -> String {
    if depth == 0 {
        return r.pick(ATOMS).to_string();
    }
    let sub = |r: &mut Rng| {
        let e = gen_exp(r, depth - 1);
        if r.below(3) == 0 {
            format!("({e})")
        } else {
            e
        }
    };
    let (a, b, c) = (sub(r), sub(r), sub(r));
    let op = r.pick(OPS);
    let p = r.pick(PATS);
    match r.below(34) {
        0..=4 => format!("{a} {op} {b}"),
        5 => format!("-{a}"),
        6 => format!("!{a}"),
        7 | 8 => format!("f {a} {b}"),
        9 => format!("if {a} then {b} else {c}"),
        10 => format!("let {p} = {a} in {b}"),
        11 => format!("let g {p} y = {a} in {b}"),
        12 => format!("let a[{a}] = {b} in {c}"),
        13 => format!("\\{p} y -> {a}"),
        14 => format!("\\(x: i32) : [n]i32 -> {a}"),
        15 => format!("loop {p} = {a} for i < {b} do {c}"),
        16 => format!("loop (a, b) = {a} while {b} do {c}"),
        17 => format!("loop x for {p} in {a} do {b}"),
        18 => format!("match {a} case 1 -> {b} case #c {p} -> {c} case (-2) -> x"),
        19 => format!("{a} : i32"),
        20 => format!("{a} :> [n]i32"),
        21 => format!("{a}..<{b}"),
        22 => format!("{a}..{b}...{c}"),
        23 => format!("{a}[{b}]"),
        24 => format!("{a}[{b}:{c}, :{a}, ::{b}]"),
        25 => format!("{a}.x.0"),
        26 => format!("{a} with [{b}] = {c}"),
        27 => format!("{a} with x.y = {b}"),
        28 => format!("{a} with [{b}].x = {c}"),
        29 => format!("#c {a} {b}"),
        30 => format!("#[unroll] {a}"),
        31 => format!("assert {a} {b}"),
        32 => format!("({a} {op}) ({op} {b}) ({a}, {b}) {{x = {a}, y}} [{a}, {b}]"),
        _ => format!("M.({a}) (\\x -> {b})"),
    }
}

#[test]
fn random_expressions_round_trip() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let (mut parsed, mut tried) = (0, 0);
    while tried < 8_000 {
        tried += 1;
        let depth = 1 + r.below(4) as u32;
        let src = format!("def main = {}", gen_exp(&mut r, depth));
        match round_trip(&src) {
            Ok(true) => parsed += 1,
            Ok(false) => {}
            Err(msg) => panic!("source: {src}\n{msg}"),
        }
    }
    assert!(
        parsed > 2_000,
        "only {parsed} of {tried} random programs parse"
    );
}

const TY_ATOMS: &[&str] = &["i32", "t", "M.t", "()", "f32", "a"];

fn gen_ty(r: &mut Rng, depth: u32) -> String {
    if depth == 0 {
        return r.pick(TY_ATOMS).to_string();
    }
    let sub = |r: &mut Rng| {
        let t = gen_ty(r, depth - 1);
        if r.below(3) == 0 {
            format!("({t})")
        } else {
            t
        }
    };
    let (a, b) = (sub(r), sub(r));
    match r.below(13) {
        0 | 1 => format!("{a} -> {b}"),
        2 => format!("(x: {a}) -> {b}"),
        3 => format!("[n]{a}"),
        4 => format!("[]{a}"),
        5 => format!("*{a}"),
        6 => format!("opt {a} {b}"),
        7 => format!("t [n] {a}"),
        8 => format!("#a {a} | #b"),
        9 => format!("#a [n]{a} {b} | #b {b}"),
        10 => format!("?[n][m].{a}"),
        11 => format!("({a}, {b})"),
        _ => format!("{{x: {a}, y: {b}}}"),
    }
}

fn gen_mod_type(r: &mut Rng, depth: u32) -> String {
    if depth == 0 {
        return r.pick(&["S", "M.S", "{}", "{ val x : i32 }"]).to_string();
    }
    let sub = |r: &mut Rng| {
        let t = gen_mod_type(r, depth - 1);
        if r.below(3) == 0 {
            format!("({t})")
        } else {
            t
        }
    };
    let (a, b) = (sub(r), sub(r));
    let t = gen_ty(r, 2);
    match r.below(5) {
        0 => format!("{a} with t = {t}"),
        1 => format!("{a} -> {b}"),
        2 => format!("(p: {a}) -> {b}"),
        3 => format!("{a} with M.t 'a [n] = {t} with u = i32"),
        _ => format!(
            "{{ val x [n] 'a : {t} type^ t 'a = {t} type u include {a} module m : {b} val (+) : {t} }}"
        ),
    }
}

fn gen_mod_exp(r: &mut Rng, depth: u32) -> String {
    if depth == 0 {
        return r
            .pick(&["M", "M.N", "{}", "{ def x = 1 }", "import \"lib\""])
            .to_string();
    }
    let sub = |r: &mut Rng| {
        let t = gen_mod_exp(r, depth - 1);
        if r.below(3) == 0 {
            format!("({t})")
        } else {
            t
        }
    };
    let (a, b) = (sub(r), sub(r));
    let s = gen_mod_type(r, 1);
    match r.below(6) {
        0 => format!("{a} {b}"),
        1 => format!("F {a} {b}"),
        2 => format!("{a} : {s}"),
        3 => format!("\\(p: {s}) -> {a}"),
        4 => format!("\\(p: {s}) (q: S) : {s} -> {a}"),
        _ => format!("{{ open {a} module n = {b} local def y = 2 type t = i32 }}"),
    }
}

fn gen_decl(r: &mut Rng) -> String {
    let d = 1 + r.below(3) as u32;
    let t = gen_ty(r, d);
    let p = r.pick(PATS);
    match r.below(9) {
        0 => format!("def f [n] 'a (x: {t}) {p} : {t} = x : {t}"),
        1 => format!("type^ t 'a [n] = {t}"),
        2 => format!("def g = \\x : {t} -> x"),
        3 => format!("def h x = match x case (y: {t}) -> y case {p} -> 1"),
        4 => format!("module type s = {}", gen_mod_type(r, d)),
        5 => format!(
            "module m (p: {}) : {} = {}",
            gen_mod_type(r, 1),
            gen_mod_type(r, 2),
            gen_mod_exp(r, d)
        ),
        6 => format!("module m = {}", gen_mod_exp(r, d)),
        7 => format!("#[noinline] entry main {p} (y: {t}) = (y : {t})"),
        _ => format!("local open {}", gen_mod_exp(r, 2)),
    }
}

#[test]
fn random_declarations_round_trip() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut parsed, mut tried) = (0, 0);
    while tried < 4_000 {
        tried += 1;
        let src = format!("{}\n{}", gen_decl(&mut r), gen_decl(&mut r));
        match round_trip(&src) {
            Ok(true) => parsed += 1,
            Ok(false) => {}
            Err(msg) => panic!("source: {src}\n{msg}"),
        }
    }
    assert!(
        parsed > 800,
        "only {parsed} of {tried} random programs parse"
    );
}

#[test]
fn if_chains() {
    check_exp("if a then 1 else 2", "if a then 1 else 2");
    check_exp(
        "if a then 1 else if b then 2 else 3",
        "if a then 1\nelse if b then 2\nelse 3",
    );
    check_exp(
        "f (if a then 1 else if b then let x = 2 in x else 3)",
        "f (if a then 1\n   else if b\n   then let x = 2\n        in x\n   else 3)",
    );
    check_exp(
        "if a then 1 else let x = 2 in x",
        "if a\nthen 1\nelse let x = 2\n     in x",
    );
}
