//! `parad bench` against the fake backend.

mod common;

use common::{Dir, Fake, Program};
use parad_testrun::bench::to_json;
use parad_testrun::{bench_files, BenchOptions, BenchReport, BenchResult};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn bench(fake: &Fake, files: &[PathBuf], options: &BenchOptions) -> (BenchReport, String) {
    let mut out = vec![];
    let r = bench_files(fake, files, options, &mut out);
    (r, String::from_utf8(out).unwrap())
}

#[test]
fn times_each_dataset_after_a_checked_warm_up() {
    let d = Dir::new();
    let p = d.file(
        "b.fut",
        "-- ==\n-- entry: echo main\n-- \"small\" input { 1 } output { 1 }\n-- nobench input { 2 } output { 2 }\n-- random input { [5]f32 }\n",
    );
    let fake = Fake::new();
    let options = BenchOptions {
        runs: 3,
        ..BenchOptions::default()
    };
    let (r, out) = bench(&fake, std::slice::from_ref(&p), &options);
    // main cannot add an f32 array: a failure; nobench: skipped twice.
    assert_eq!(r.failures, 1, "{out}");
    let names: Vec<(&str, &str)> = r
        .results
        .iter()
        .map(|r| (r.entry.as_str(), r.dataset.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("echo", "small"),
            ("main", "small"),
            ("echo", "#3 (\"[5]f32\")")
        ]
    );
    assert!(r
        .results
        .iter()
        .all(|r| r.runtimes.len() == 3 && r.program == p));
    assert!(out.contains("b.fut:echo small: min "), "{out}");
    assert!(
        out.contains("b.fut:main #2 (\"2\"): skipped: tagged `nobench`"),
        "{out}"
    );
    assert!(
        out.contains("b.fut:main #3 (\"[5]f32\"): failed: run-time error:"),
        "{out}"
    );
    // Per measured dataset: one warm-up and three timed calls.
    assert_eq!(fake.calls.borrow().len(), 3 * 4 + 1);
}

#[test]
fn script_inputs_are_computed_before_timing() {
    let d = Dir::new();
    let p = d.file(
        "s.fut",
        "-- ==\n-- entry: echo\n-- script input { main 1i32 2i32 } output { 3i32 }\n-- script input { $loadimg \"x.png\" }\n",
    );
    let fake = Fake::new();
    let options = BenchOptions {
        runs: 2,
        ..BenchOptions::default()
    };
    let (r, out) = bench(&fake, &[p], &options);
    assert_eq!(r.failures, 0, "{out}");
    assert_eq!(r.results.len(), 1, "{out}");
    assert!(
        out.contains("skipped: not supported: the built-in $loadimg"),
        "{out}"
    );
    // The script's call of `main`, a warm-up and two timed calls of `echo`.
    let calls = fake.calls.borrow();
    let names: Vec<&str> = calls.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(names, ["main", "echo", "echo", "echo"]);
}

#[test]
fn wrong_results_fail_the_dataset() {
    let d = Dir::new();
    let p = d.file("w.fut", "-- ==\n-- input { 1 2 } output { 4 }\n");
    let (r, out) = bench(&Fake::new(), &[p], &BenchOptions::default());
    assert_eq!(r.failures, 1);
    assert!(r.results.is_empty());
    assert!(out.contains("failed: expected 4i32, got 3i32"), "{out}");
}

#[test]
fn programs_without_datasets_are_not_compiled() {
    let d = Dir::new();
    let lib = d.file("lib.fut", "def f x = x\n");
    let errs = d.file("errs.fut", "-- ==\n-- error: nope\n");
    let unsup = d.file("u.fut", "-- ==\n-- input { 1 }\n");
    let fake = Fake::new()
        .with("lib.fut", Program::CompileError("broken"))
        .with("errs.fut", Program::CompileError("broken"))
        .with("u.fut", Program::Unsupported("no interpreter yet"));
    let (r, out) = bench(&fake, &[lib, errs, unsup], &BenchOptions::default());
    assert_eq!(r.failures, 0, "{out}");
    assert_eq!(
        out.trim(),
        format!(
            "{}: skipped: no interpreter yet",
            d.0.path().join("u.fut").display()
        )
    );
}

#[test]
fn compile_errors_are_failures() {
    let d = Dir::new();
    let p = d.file("c.fut", "-- ==\n-- input { 1 }\n");
    let fake = Fake::new().with("c.fut", Program::CompileError("error: bad"));
    let (r, out) = bench(&fake, &[p], &BenchOptions::default());
    assert_eq!(r.failures, 1);
    assert!(
        out.contains("c.fut: compilation failed:\nerror: bad"),
        "{out}"
    );
}

fn result(entry: &str, dataset: &str, micros: &[u64]) -> BenchResult {
    BenchResult {
        program: Path::new("p.fut").to_path_buf(),
        entry: entry.into(),
        dataset: dataset.into(),
        runtimes: micros.iter().map(|&m| Duration::from_micros(m)).collect(),
        peak_memory: None,
    }
}

#[test]
fn min_and_median() {
    let r = result("main", "d", &[30, 10, 20, 50]);
    assert_eq!(r.min(), Duration::from_micros(10));
    assert_eq!(r.median(), Duration::from_micros(25));
    assert_eq!(
        result("main", "d", &[3, 1, 2]).median(),
        Duration::from_micros(2)
    );
    assert_eq!(result("main", "d", &[]).median(), Duration::ZERO);
}

#[test]
fn json_layout() {
    let rs = [
        result("main", "#1 (\"1 2\")", &[5, 7]),
        result("main", "big", &[9]),
        result("f", "x", &[]),
    ];
    assert_eq!(
        to_json(&rs),
        "{\n  \"p.fut:main\": {\"datasets\": {\n    \"#1 (\\\"1 2\\\")\": {\"runtimes\": [5, 7]},\n    \"big\": {\"runtimes\": [9]}\n  }},\n  \"p.fut:f\": {\"datasets\": {\n    \"x\": {\"runtimes\": []}\n  }}\n}\n"
    );
}
