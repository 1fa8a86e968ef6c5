//! The options of `parad test` and `parad bench` that Futhark users rely
//! on: `-i`, `-c`, `-C`, `-t`, `--concurrency`, `--pass-option`,
//! `--no-terminal`, `--ignore-files`, tuning files and `--param`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn parad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .env_remove("PARAD_BACKEND")
        .output()
        .expect("run parad")
}

fn text(o: &Output) -> (String, String, i32) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().expect("no signal"),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// One passing case, and one whose expected output is wrong.
const HALF_WRONG: &str =
    "-- ==\n-- input { 1 } output { 2 }\n-- input { 2 } output { 7 }\ndef main (x: i32) = x + 1\n";

#[test]
fn interpreter_flag_runs_the_interpreter() {
    let d = tempfile::tempdir().unwrap();
    // `compiled` cases are what an interpreter skips: with `-i` one is
    // skipped, with `-c` (compiled code) it runs.
    let p = write(
        d.path(),
        "p.fut",
        "-- ==\n-- input { 1 } output { 2 }\n-- compiled input { 2 } output { 3 }\ndef main (x: i32) = x + 1\n",
    );
    let (out, err, code) = text(&parad(&["test", "-i", s(&p)]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("1 passed, 0 failed, 1 skipped\n"), "{out}");
    let (out, err, code) = text(&parad(&["test", "-c", "--backend", "interp", s(&p)]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("2 passed, 0 failed, 0 skipped\n"), "{out}");
    let (_, err, code) = text(&parad(&["test", "-c", "-i", s(&p)]));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn compile_and_type_check_only() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", HALF_WRONG);
    let (out, _, code) = text(&parad(&["test", "-i", s(&p)]));
    assert_eq!(code, 1);
    assert!(out.ends_with("1 passed, 1 failed, 0 skipped\n"), "{out}");
    for flag in ["-C", "-t"] {
        let (out, err, code) = text(&parad(&["test", flag, "--backend", "c", s(&p)]));
        assert_eq!(code, 0, "{flag}: {out}{err}");
        assert_eq!(out, "1 passed, 0 failed, 0 skipped\n", "{flag}");
    }
    let q = write(d.path(), "q.fut", "def main (x: i32) : bool = x\n");
    let (out, _, code) = text(&parad(&["test", "-t", s(&q)]));
    assert_eq!(code, 1);
    assert!(out.contains("q.fut: type checking failed:"), "{out}");
    assert!(out.contains("q.fut:1:"), "{out}");
    let (_, err, code) = text(&parad(&["test", "-t", "-C", s(&q)]));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn concurrency_gives_the_same_report() {
    let d = tempfile::tempdir().unwrap();
    for i in 0..6 {
        write(d.path(), &format!("f{i}.fut"), HALF_WRONG);
    }
    let mut reports = vec![];
    for n in ["1", "4"] {
        let (out, _, code) = text(&parad(&["test", "-i", "--concurrency", n, s(d.path())]));
        assert_eq!(code, 1);
        let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
        assert_eq!(lines.pop().unwrap(), "6 passed, 6 failed, 0 skipped");
        lines.sort();
        reports.push(lines);
    }
    assert_eq!(reports[0], reports[1]);
    // A heading and a detail line per failure.
    assert_eq!(reports[0].len(), 6 * 2, "{:?}", reports[0]);
    let (_, err, code) = text(&parad(&["test", "--concurrency", "0", s(d.path())]));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn pass_options() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "-- ==\n-- input { [1, 2, 3] } output { 6 }\ndef main (xs: []i32) = i32.sum xs\n",
    );
    for opt in [
        "--pass-option=--num-threads=2",
        "--pass-option=--num-threads 1",
    ] {
        let (out, err, code) = text(&parad(&["test", "--backend", "multicore", opt, s(&p)]));
        assert_eq!(code, 0, "{opt}: {out}{err}");
        assert_eq!(out, "1 passed, 0 failed, 0 skipped\n");
    }
    let (_, err, code) = text(&parad(&["test", "--pass-option=-dHawaii", s(&p)]));
    assert_eq!(code, 2);
    assert!(err.contains("--pass-option `-dHawaii`"), "{err}");
    assert!(err.contains("--num-threads"), "{err}");
    let (_, err, code) = text(&parad(&[
        "bench",
        "--pass-option=--num-threads=zero",
        s(&p),
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("`zero` is not a positive number"), "{err}");
}

#[test]
fn bench_ignores_files_and_prepares_concurrently() {
    let d = tempfile::tempdir().unwrap();
    let body = "-- ==\n-- input { 3 } output { 4 }\ndef main (x: i32) = x + 1\n";
    write(d.path(), "timed.fut", body);
    write(d.path(), "skipped.fut", body);
    write(d.path(), "also.fut", body);
    let (out, err, code) = text(&parad(&[
        "bench",
        "--backend",
        "c",
        "-r",
        "1",
        "--concurrency",
        "2",
        "--ignore-files",
        "skip",
        s(d.path()),
    ]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("timed.fut:main"), "{out}");
    assert!(out.contains("also.fut:main"), "{out}");
    assert!(!out.contains("skipped.fut"), "{out}");
    let (_, err, code) = text(&parad(&["bench", "--ignore-files", "(", s(d.path())]));
    assert_eq!(code, 2);
    assert!(err.contains("--ignore-files `(`"), "{err}");
}

#[test]
fn seed_makes_property_tests_reproducible() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "prop.fut",
        "-- ==\n-- property: small\n#[prop]\nentry small (xs: []u32) = all (< 5) xs\n",
    );
    let line = format!(
        "{}: property small (line 2): counterexample after 12 tests: [5u32]\n  seed 3 (rerun with --seed=3 to reproduce)\n",
        s(&p)
    );
    let (out, err, code) = text(&parad(&["test", "-i", "--seed", "3", s(&p)]));
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out, format!("{line}0 passed, 1 failed, 0 skipped\n"));
    assert_eq!(text(&parad(&["test", "-i", "--seed=3", s(&p)])).0, out);
    // Without `--seed`, the seed drawn is printed.
    let (out, _, code) = text(&parad(&["test", "-i", s(&p)]));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("to reproduce)\n"), "{out}");
    let (_, err, code) = text(&parad(&["test", "--seed", "x", s(&p)]));
    assert_eq!(code, 2, "{err}");
}

/// A program with one tuning parameter, `k` (default 1), and a test
/// expecting `k = 5`.
const TUNED: &str = "-- ==\n-- compiled input { 10i64 } output { 15i64 }\n\
                     entry main (x: i64) = x + #[param(k)] 1\n";

#[test]
fn tuning_files_and_params() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", TUNED);
    let test = |extra: &[&str]| {
        let mut args = vec!["test", "--backend", "multicore", "--no-terminal"];
        args.extend_from_slice(extra);
        args.push(s(&p));
        text(&parad(&args))
    };
    // No tuning file: the default, 11.
    let (out, _, code) = test(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("expected 15i64, got 11i64"), "{out}");
    // PROG.fut.tuning is read, unless --no-tuning.
    write(d.path(), "p.fut.tuning", "k=5\n");
    let (out, err, code) = test(&[]);
    assert_eq!(code, 0, "{out}{err}");
    let (out, _, code) = test(&["--no-tuning"]);
    assert_eq!(code, 1, "{out}");
    // Another extension.
    write(d.path(), "p.fut.cpu", "\nk = 5\n");
    let (out, err, code) = test(&["--tuning", "cpu"]);
    assert_eq!(code, 0, "{out}{err}");
    // --pass-option --param wins over the file.
    let (out, _, _) = test(&["--pass-option=--param=k=6"]);
    assert!(out.contains("expected 15i64, got 16i64"), "{out}");
    // A malformed file, and a parameter the program does not have.
    write(d.path(), "p.fut.tuning", "k=5\nk=-1\n");
    let (out, _, code) = test(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("p.fut.tuning: line 2: the value of k, `-1`, is not a non-negative integer"),
        "{out}"
    );
    write(d.path(), "p.fut.tuning", "m=5\n");
    let (out, _, code) = test(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unknown tuning parameter m: the program has k"),
        "{out}"
    );
}

#[test]
fn run_takes_params_and_tuning_files() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", TUNED);
    let t = write(d.path(), "t", "k=3\n");
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_parad"));
        c.args(["run", "--backend", "multicore", s(&p)]).args(extra);
        let mut child = c
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        // A usage error exits before reading its input.
        let _ = child.stdin.take().unwrap().write_all(b"10");
        text(&child.wait_with_output().unwrap())
    };
    assert_eq!(run(&[]).0.trim(), "11i64");
    assert_eq!(run(&["--param", "k=7"]).0.trim(), "17i64");
    assert_eq!(run(&["--tuning", s(&t)]).0.trim(), "13i64");
    assert_eq!(
        run(&["--tuning", s(&t), "--param", "k=4"]).0.trim(),
        "14i64"
    );
    let (_, err, code) = run(&["--param", "k"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`k` is not NAME=VALUE"), "{err}");
    let (_, err, code) = run(&["--param", "j=1"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown tuning parameter j"), "{err}");
}
