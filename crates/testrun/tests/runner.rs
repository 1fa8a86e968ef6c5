//! The runner against an in-memory backend: each test writes `.fut` files
//! with test blocks into a temporary directory and checks the counts and
//! the report.

use parad_testrun::{find_fut_files, run_file, Options, Summary};
use parad_values::{Scalar, Value};
use std::path::{Path, PathBuf};

mod common;

use common::{Dir, Fake, Program};

fn run_with(backend: &Fake, path: &Path, options: &Options) -> (Summary, String) {
    let mut out = vec![];
    let s = run_file(backend, path, options, &mut out);
    (s, String::from_utf8(out).unwrap())
}

fn run(backend: &Fake, path: &Path) -> (Summary, String) {
    run_with(backend, path, &Options::default())
}

fn counts(passed: usize, failed: usize, skipped: usize) -> Summary {
    Summary {
        passed,
        failed,
        skipped,
    }
}

#[test]
fn summary_line_format() {
    assert_eq!(counts(3, 1, 2).to_string(), "3 passed, 1 failed, 2 skipped");
}

#[test]
fn outputs_are_compared() {
    let d = Dir::new();
    let p = d.file("add.fut", "-- ==\n-- input { 1 2 } output { 3 }\n-- input { 1 2 }\n-- output { 4 }\n-- input { } output { 0 }\ndef main = 0\n");
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(2, 1, 0), "{out}");
    assert!(
        out.contains("add.fut: entry main, input #2 (line 3):"),
        "{out}"
    );
    assert!(out.contains("expected 4i32, got 3i32"), "{out}");
}

#[test]
fn wrong_number_of_results_fails() {
    let d = Dir::new();
    let p = d.file(
        "n.fut",
        "-- ==\n-- entry: echo\n-- input { 1 2 } output { 1 }\n-- input { 1 2 } output { 1 2 }\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(1, 1, 0), "{out}");
    assert!(out.contains("expected 1 result value(s), got 2"), "{out}");
}

#[test]
fn malformed_values_fail_with_their_line() {
    let d = Dir::new();
    let p = d.file(
        "bad.fut",
        "-- ==\n-- input { 1 2 } output { 3 }\n-- input {\n--   1 [2,\n-- } output { 3 }\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(1, 1, 0), "{out}");
    assert!(out.contains("input #2 (line 3)"), "{out}");
    assert!(out.contains("bad input: line"), "{out}");
}

#[test]
fn run_time_errors() {
    let d = Dir::new();
    let p = d.file(
        "err.fut",
        "-- ==\n-- entry: fail\n-- input { 1 }\n-- error: out of bounds\n-- input { 2 }\n-- error: division by zero\n-- input { 3 } output { 3 }\n\n-- ==\n-- input { 1 } error: .*\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(1, 3, 0), "{out}");
    assert!(out.contains("entry fail, input #2 (line 5):\n  expected an error matching `division by zero`, but got:\n  Error: index [5]"), "{out}");
    assert!(
        out.contains("entry fail, input #3 (line 7):\n  run-time error:"),
        "{out}"
    );
    assert!(out.contains("entry main, input #4 (line 10):\n  expected an error matching `.*`, but the run succeeded"), "{out}");
}

#[test]
fn several_entries_and_blocks() {
    let d = Dir::new();
    let p = d.file(
        "multi.fut",
        "-- ==\n-- entry: main echo\n-- input { 1 } output { 1 }\n-- input { 2 } output { 2 }\n\ndef x = 1\n\n-- ==\n-- entry: echo\n-- input { [1,2] } output { [1,2] }\n",
    );
    let fake = Fake::new();
    let (s, out) = run(&fake, &p);
    assert_eq!(s, counts(5, 0, 0), "{out}");
    let entries: Vec<String> = fake.calls.borrow().iter().map(|c| c.0.clone()).collect();
    assert_eq!(entries, ["main", "echo", "main", "echo", "echo"]);

    let only = Options {
        entry: Some("echo".into()),
        ..Options::default()
    };
    let (s, _) = run_with(&Fake::new(), &p, &only);
    assert_eq!(s, counts(3, 0, 0));
}

#[test]
fn missing_entry_point_fails() {
    let d = Dir::new();
    let p = d.file("e.fut", "-- ==\n-- entry: mian\n-- input { 1 } error: .*\n");
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(0, 1, 0), "{out}");
    assert!(out.contains("no entry point `mian`"), "{out}");
}

#[test]
fn compile_time_errors() {
    let d = Dir::new();
    let good = d.file("good.fut", "-- ==\n-- error: Cannot unify i32\n");
    let wrong = d.file("wrong.fut", "-- ==\n-- error: Unknown variable\n");
    let compiles = d.file("compiles.fut", "-- ==\n-- error: anything\n");
    let fake = Fake::new()
        .with(
            "good.fut",
            Program::CompileError("error: Cannot unify i32 with bool"),
        )
        .with(
            "wrong.fut",
            Program::CompileError("error: Cannot unify i32 with bool"),
        );
    assert_eq!(run(&fake, &good).0, counts(1, 0, 0));
    let (s, out) = run(&fake, &wrong);
    assert_eq!(s, counts(0, 1, 0));
    assert!(out.contains("wrong.fut: compile error (line 2):\n  expected a compile error matching `Unknown variable`, but got:\n  error: Cannot unify"), "{out}");
    let (s, out) = run(&fake, &compiles);
    assert_eq!(s, counts(0, 1, 0));
    assert!(out.contains("but the program compiled"), "{out}");
}

#[test]
fn compile_failure_fails_every_case() {
    let d = Dir::new();
    let p = d.file(
        "broken.fut",
        "-- ==\n-- entry: main echo\n-- input { 1 } output { 1 }\n-- input { 2 } output { 2 }\n",
    );
    let fake = Fake::new().with("broken.fut", Program::CompileError("error: unexpected `)`"));
    let (s, out) = run(&fake, &p);
    assert_eq!(s, counts(0, 4, 0));
    assert!(
        out.contains(
            "broken.fut: compilation failed (4 case(s) not run):\n  error: unexpected `)`"
        ),
        "{out}"
    );
}

#[test]
fn files_without_test_blocks_are_compiled_only() {
    let d = Dir::new();
    let ok = d.file("lib.fut", "-- A library.\ndef f x = x\n");
    let bad = d.file("badlib.fut", "def f x = \n");
    let unsup = d.file("unsup.fut", "def f x = x\n");
    let fake = Fake::new()
        .with(
            "badlib.fut",
            Program::CompileError("error: unexpected end of file"),
        )
        .with("unsup.fut", Program::Unsupported("cannot lower yet"));
    assert_eq!(run(&fake, &ok).0, counts(1, 0, 0));
    let (s, out) = run(&fake, &bad);
    assert_eq!(s, counts(0, 1, 0));
    assert!(
        out.contains("badlib.fut: compilation failed:\n  error: unexpected end of file"),
        "{out}"
    );
    assert_eq!(run(&fake, &unsup).0, counts(0, 0, 1));
}

#[test]
fn unsupported_programs_skip_every_case() {
    let d = Dir::new();
    let p = d.file(
        "u.fut",
        "-- ==\n-- entry: main echo\n-- input { 1 } output { 1 }\n-- input { 2 } output { 2 }\n",
    );
    let p2 = d.file(
        "u2.fut",
        "-- ==\n-- error: type error\n\n-- ==\n-- property: a b\n",
    );
    let fake = Fake::new()
        .with(
            "u.fut",
            Program::Unsupported("the interpreter cannot run programs yet"),
        )
        .with("u2.fut", Program::Unsupported("nope"));
    let (s, out) = run(&fake, &p);
    assert_eq!(s, counts(0, 0, 4));
    assert!(
        out.contains("u.fut: 4 case(s): skipped: the interpreter cannot run programs yet"),
        "{out}"
    );
    assert_eq!(run(&fake, &p2).0, counts(0, 0, 3));
}

#[test]
fn unsupported_calls_are_skipped() {
    let d = Dir::new();
    let p = d.file(
        "c.fut",
        "-- ==\n-- entry: unsup\n-- input { 1 } output { 1 }\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(0, 0, 1));
    assert!(
        out.contains("c.fut: entry unsup, input #1 (line 3): skipped: f16 is not supported yet"),
        "{out}"
    );
}

#[test]
fn tags_and_modifiers_skip() {
    let d = Dir::new();
    let disabled = d.file("dis.fut", "-- ==\n-- tags { slow disable }\n-- input { 1 } output { 1 }\n-- input { 2 } output { 2 }\n");
    let (s, out) = run(&Fake::new(), &disabled);
    assert_eq!(s, counts(0, 0, 2));
    assert!(out.contains("skipped: tagged `disable`"), "{out}");

    let mods = d.file(
        "mods.fut",
        "-- ==\n-- compiled input { 1 } output { 1 }\n-- no_fake input { 2 } output { 2 }\n-- nobench input { 3 } output { 3 }\n-- \"named\" no_other input { 4 } output { 4 }\n",
    );
    let (s, out) = run(&Fake::new(), &mods);
    assert_eq!(s, counts(2, 0, 2), "{out}");
    assert!(
        out.contains("input #1 (line 2): skipped: marked `compiled`"),
        "{out}"
    );
    assert!(
        out.contains("input #2 (line 3): skipped: tagged `no_fake`"),
        "{out}"
    );

    let with_compiled = Options {
        include_compiled: true,
        ..Options::default()
    };
    assert_eq!(
        run_with(&Fake::new(), &mods, &with_compiled).0,
        counts(3, 0, 1)
    );

    let mut compiler = Fake::new();
    compiler.interpreter = false;
    assert_eq!(run(&compiler, &mods).0, counts(3, 0, 1));

    let excl = Options {
        exclude: vec!["slow".into(), "nobench".into()],
        ..Options::default()
    };
    assert_eq!(run_with(&Fake::new(), &mods, &excl).0, counts(1, 0, 3));
    let tagged = d.file(
        "slow.fut",
        "-- ==\n-- tags { slow }\n-- input { 1 } output { 1 }\n",
    );
    assert_eq!(run_with(&Fake::new(), &tagged, &excl).0, counts(0, 0, 1));
}

#[test]
fn spec_errors_count_as_one_failure() {
    let d = Dir::new();
    let p = d.file(
        "spec.fut",
        "def f = 1\n-- ==\n-- input { 1 }\n-- ouput { 2 }\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(0, 1, 0));
    assert!(
        out.contains("spec.fut:4: error: malformed test block:"),
        "{out}"
    );
}

#[test]
fn unreadable_file_fails() {
    let d = Dir::new();
    let (s, out) = run(&Fake::new(), &d.0.path().join("nope.fut"));
    assert_eq!(s, counts(0, 1, 0));
    assert!(out.contains("cannot read the file"), "{out}");
}

#[test]
fn data_files() {
    let d = Dir::new();
    d.file("data/in.txt", "1 2\n3\n");
    d.file("data/out.txt", "6\n");
    let p = d.file("f.fut", "-- ==\n-- input @ data/in.txt output @ data/out.txt\n-- input @ data/in.txt output { 7 }\n-- input @ data/missing.in\n");
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(1, 2, 0), "{out}");
    assert!(out.contains("expected 7i32, got 6i32"), "{out}");
    assert!(out.contains("missing.in"), "{out}");
}

#[test]
fn script_inputs() {
    let d = Dir::new();
    d.file("d.in", "[1,2,3]");
    d.file("gen.script", "-- a comment\nmain 1i32 2i32");
    let p = d.file(
        "s.fut",
        "-- ==\n-- entry: echo\n\
         -- script input { $loaddata \"d.in\" } output { [1,2,3] }\n\
         -- script input { let x = main 1i32 2i32 in (x, echo 4, {b = 6i32, a = 5i32}) } output { 3i32 4i32 5i32 6i32 }\n\
         -- script input @ gen.script\n-- output { 3i32 }\n\
         -- script input { mk 3i64 }\n\
         -- script input { $loadimg \"x.png\" }\n",
    );
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(3, 1, 1), "{out}");
    assert!(
        out.contains("bad input: script: unknown name `mk`"),
        "{out}"
    );
    assert!(
        out.contains("skipped: not supported: the built-in $loadimg"),
        "{out}"
    );
}

#[test]
fn random_inputs_are_deterministic() {
    let d = Dir::new();
    let p = d.file("r.fut", "-- ==\n-- entry: echo\n-- random input { [3][2]f32 5i64 bool } auto output\n-- random input { [4]i32 }\n");
    let first = Fake::new();
    assert_eq!(run(&first, &p).0, counts(2, 0, 0));
    let second = Fake::new();
    run(&second, &p);
    let calls = first.calls.borrow();
    assert_eq!(*calls, *second.calls.borrow());
    let args = &calls[0].1;
    assert_eq!(args.len(), 3);
    assert_eq!(args[0].type_name(), "[3][2]f32");
    assert_eq!(args[1], Value::Scalar(Scalar::I64(5)));
    assert_eq!(args[2].type_name(), "bool");
    assert_eq!(calls[1].1[0].type_name(), "[4]i32");
}

#[test]
fn bad_random_type_fails() {
    let d = Dir::new();
    let p = d.file("r.fut", "-- ==\n-- random input { [3]f33 }\n");
    let (s, out) = run(&Fake::new(), &p);
    assert_eq!(s, counts(0, 1, 0));
    assert!(out.contains("`[3]f33`"), "{out}");
}

#[test]
fn finds_fut_files_recursively_in_order() {
    let d = Dir::new();
    d.file("b.fut", "");
    d.file("a/z.fut", "");
    d.file("a/data.in", "");
    d.file("a/deep/y.fut", "");
    let explicit = d.file("other.txt", "");
    let found = find_fut_files(&[d.0.path().to_path_buf(), explicit.clone()]).unwrap();
    let rel: Vec<PathBuf> = found
        .iter()
        .map(|p| p.strip_prefix(d.0.path()).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        rel,
        [
            PathBuf::from("a/deep/y.fut"),
            "a/z.fut".into(),
            "b.fut".into(),
            "other.txt".into()
        ]
    );
    assert!(find_fut_files(&[d.0.path().join("absent")])
        .unwrap_err()
        .contains("absent"));
}
