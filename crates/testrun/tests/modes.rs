//! `parad test -C`, `-t` and `--concurrency`: how far each program goes,
//! and files tested on several threads.

use parad_driver::{Config, Interp};
use parad_testrun::{run_file, run_files, run_files_concurrently, Mode, Options, Summary};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

use common::{Dir, Fake, Program};

fn counts(passed: usize, failed: usize, skipped: usize) -> Summary {
    Summary {
        passed,
        failed,
        skipped,
    }
}

fn run_in(mode: Mode, backend: &dyn parad_driver::Backend, path: &Path) -> (Summary, String) {
    let options = Options {
        mode,
        ..Options::default()
    };
    let mut out = vec![];
    let s = run_file(backend, path, &options, &mut out);
    (s, String::from_utf8(out).unwrap())
}

/// A program whose one case fails when run: `-C` and `-t` do not run it.
const WRONG_OUTPUT: &str =
    "-- ==\n-- input { 1 } output { 5 }\n-- input { 2 } output { 7 }\ndef main (x: i32) = x + 1\n";

#[test]
fn type_check_only_does_not_run() {
    let d = Dir::new();
    let interp = Interp::new(Config::default());
    let p = d.file("wrong.fut", WRONG_OUTPUT);
    assert_eq!(run_in(Mode::Run, &interp, &p).0, counts(0, 2, 0));
    let (s, out) = run_in(Mode::TypeCheck, &interp, &p);
    assert_eq!(s, counts(1, 0, 0), "{out}");
    assert_eq!(out, "");
}

#[test]
fn type_check_only_reports_type_errors_with_their_location() {
    let d = Dir::new();
    let interp = Interp::new(Config::default());
    let p = d.file(
        "bad.fut",
        "-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32) = x + true\n",
    );
    let (s, out) = run_in(Mode::TypeCheck, &interp, &p);
    assert_eq!(s, counts(0, 1, 0), "{out}");
    assert!(
        out.starts_with(&format!("{}: type checking failed:", p.display())),
        "{out}"
    );
    assert!(out.contains("bad.fut:3:"), "{out}");
}

#[test]
fn expected_compile_errors_pass_in_both_modes() {
    let d = Dir::new();
    let interp = Interp::new(Config::default());
    let p = d.file(
        "expected.fut",
        "-- ==\n-- error: bool\ndef main (x: i32) = x + true\n",
    );
    assert_eq!(run_in(Mode::TypeCheck, &interp, &p).0, counts(1, 0, 0));
    assert_eq!(run_in(Mode::Compile, &interp, &p).0, counts(1, 0, 0));
    // An expectation that does not match the message is a failure.
    let q = d.file(
        "unexpected.fut",
        "-- ==\n-- error: nothing like this\ndef main (x: i32) = x + true\n",
    );
    assert_eq!(run_in(Mode::TypeCheck, &interp, &q).0, counts(0, 1, 0));
}

#[test]
fn compile_only_uses_the_backend() {
    let d = Dir::new();
    let ok = d.file("ok.fut", WRONG_OUTPUT);
    let broken = d.file("broken.fut", WRONG_OUTPUT);
    let unsup = d.file("unsup.fut", WRONG_OUTPUT);
    let fake = Fake::new()
        .with("broken.fut", Program::CompileError("error: no such thing"))
        .with("unsup.fut", Program::Unsupported("not yet"));
    assert_eq!(run_in(Mode::Compile, &fake, &ok).0, counts(1, 0, 0));
    assert!(fake.calls.borrow().is_empty(), "-C ran an entry point");
    let (s, out) = run_in(Mode::Compile, &fake, &broken);
    assert_eq!(s, counts(0, 1, 0));
    assert!(
        out.contains("compilation failed:\n  error: no such thing"),
        "{out}"
    );
    assert_eq!(run_in(Mode::Compile, &fake, &unsup).0, counts(0, 0, 1));
}

/// Files whose outcomes differ: passing, failing and skipped cases.
fn corpus(d: &Dir) -> Vec<PathBuf> {
    (0..9)
        .map(|i| {
            let text = match i % 3 {
                0 => format!("-- ==\n-- input {{ {i} }} output {{ {} }}\ndef main (x: i32) = x + 1\n", i + 1),
                1 => format!("-- ==\n-- input {{ {i} }} output {{ 0 }}\ndef main (x: i32) = x * 2\n"),
                _ => "-- ==\n-- tags { disable }\n-- input { 1 } output { 1 }\ndef main (x: i32) = x\n".to_string(),
            };
            d.file(&format!("f{i}.fut"), &text)
        })
        .collect()
}

#[test]
fn concurrent_runs_report_every_file_once_with_the_sequential_counts() {
    let d = Dir::new();
    let files = corpus(&d);
    let interp = Interp::new(Config::default());
    let options = Options::default();
    let sequential = run_files(&interp, &files, &options, &mut vec![]);
    // f1, f4 and f7 expect 0 and get 2, 8 and 14.
    assert_eq!(sequential, counts(3, 3, 3));
    for threads in [1, 3, 20] {
        let mut seen = BTreeMap::new();
        let total = run_files_concurrently(&interp, &files, &options, threads, &mut |r| {
            let text = String::from_utf8(r.output).unwrap();
            assert!(seen
                .insert(r.path.to_path_buf(), (r.summary, text))
                .is_none());
        });
        assert_eq!(total, sequential, "with {threads} thread(s)");
        assert_eq!(seen.len(), files.len());
        // Each file's report is whole: the failing one names its case.
        let (s, text) = &seen[&files[1]];
        assert_eq!(*s, counts(0, 1, 0));
        assert!(text.contains("f1.fut: entry main, input #1"), "{text}");
    }
}

#[test]
fn concurrent_run_of_no_files() {
    let interp = Interp::new(Config::default());
    let total = run_files_concurrently(&interp, &[], &Options::default(), 4, &mut |_| {
        panic!("no file to report")
    });
    assert_eq!(total, Summary::default());
}
