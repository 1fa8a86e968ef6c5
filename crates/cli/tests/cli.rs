//! The `parad` binary as a user runs it: exit codes, messages, reports.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn parad(args: &[&str]) -> Output {
    parad_with_stdin(args, "")
}

fn parad_with_stdin(args: &[&str], stdin: &str) -> Output {
    // The interpreter unless a test names a backend: these tests are about
    // the command line, and the C backend has tests of its own.
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .env("PARAD_BACKEND", "interp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parad");
    // The program may exit before reading its input.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().expect("run parad")
}

fn code(o: &Output) -> i32 {
    o.status
        .code()
        .expect("exited normally (no signal, no panic abort)")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn no_panic(o: &Output) {
    assert!(
        !stderr(o).contains("panicked"),
        "parad panicked:\n{}",
        stderr(o)
    );
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["check"],
        &["test"],
        &["run"],
        &["dump", "x.fut"],
        &["dump", "--stage=bogus", "x.fut"],
        &["run", "--backend=nonesuch", "x.fut"],
        &["bench"],
        &["bench", "-r", "0", "x.fut"],
        &["run", "--threads", "0", "x.fut"],
        &["test", "--threads=x", "x.fut"],
    ] {
        let o = parad(args);
        assert_eq!(code(&o), 2, "parad {args:?}\n{}", stderr(&o));
        no_panic(&o);
    }
}

#[test]
fn dump_of_unknown_stage_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", "def main (x: i32) = x\n");
    let o = parad(&["dump", "--stage=nosuch", s(&p)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    no_panic(&o);
}

/// The C backend's stages: its imperative IR (reading the argument,
/// writing the result) and the C text (an entry function and the ABI).
#[test]
fn dump_imp_and_c() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", "def main (xs: []f64) = map (*2) xs\n");
    let o = parad(&["dump", "--stage=imp", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let imp = stdout(&o);
    assert!(
        imp.contains("entry main") && imp.contains("input 0") && imp.contains("output 0"),
        "{imp}"
    );
    assert!(imp.contains("parfor"), "{imp}");
    let o = parad(&["dump", "--stage=c", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let c = stdout(&o);
    assert!(
        c.contains("int32_t entry_0(") && c.contains("parad_par_for("),
        "{c}"
    );
}

/// `--stats` counts statements at any depth: a map of a reduction is
/// two SOACs and (with the lambdas' statements) more statements.
#[test]
fn dump_stats_counts_statements() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "def main (xss: [][]f64) = map (\\xs -> f64.sum xs) xss\n",
    );
    let o = parad(&["dump", "--stage=lower", "--stats", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let header: Vec<&str> = out.lines().next().unwrap().split('\t').collect();
    let row: Vec<&str> = out.lines().nth(1).unwrap().split('\t').collect();
    let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(row[0], "entry_main", "{out}");
    assert_eq!(
        (col("soacs"), col("map"), col("reduce")),
        ("2", "1", "1"),
        "{out}"
    );
    assert!(col("stms").parse::<usize>().unwrap() >= 4, "{out}");
}

#[test]
fn dump_ast_prints_the_tree() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", "def main (x: i32) = x\n");
    let o = parad(&["dump", "--stage=ast", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("main"), "{}", stdout(&o));
}

#[test]
fn dump_elaborated_prints_the_implicit_maps() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", "def main (xs: []i32) = xs + 1\n");
    let o = parad(&["dump", "--stage=elaborated", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "def main (xs: []i32) = map (\\am'1 -> am'1 + 1) xs\n"
    );
    // Not a core-IR stage: no `--dump-after`, no printed IR.
    let o = parad(&["dump", "--stage=elaborated", "--dump-after=lower", s(&p)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let ir = write(d.path(), "p.pir", "");
    let o = parad(&["dump", "--stage=elaborated", s(&ir)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    // A type error is reported as by `check`.
    let bad = write(d.path(), "bad.fut", "def main (xs: []i32) = xs + true\n");
    let o = parad(&["dump", "--stage=elaborated", s(&bad)]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("bad.fut:1:"), "{}", stderr(&o));
}

#[test]
fn check_automap_stats() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "p.fut", "def main (xs: []i32) = xs + 1\n");
    let o = parad(&["check", "--automap-stats", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("main: applications 2 constraints 14 variables 10"),
        "{out}"
    );
    assert!(out.contains("time: definitions "), "{out}");
}

#[test]
fn check_missing_file() {
    let o = parad(&["check", "no/such/file.fut"]);
    assert_eq!(code(&o), 1);
    let e = stderr(&o);
    assert!(e.starts_with("error: cannot read no/such/file.fut"), "{e}");
    assert_eq!(stdout(&o), "");
}

#[test]
fn check_reports_syntax_errors_with_carets() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "bad.fut",
        "def main (x: i32) : i32 =\n  x + * 2\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    no_panic(&o);
    let e = stderr(&o);
    assert!(e.starts_with("error:"), "{e}");
    assert!(e.contains(&format!("{}:2:", p.display())), "{e}");
    assert!(e.contains('^'), "{e}");
}

#[test]
fn check_reports_type_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "ty.fut", "def main (x: i32) : bool = x + 1\n");
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    let e = stderr(&o);
    assert!(e.starts_with("error:") && e.contains("ty.fut:1:"), "{e}");
}

#[test]
fn check_accepts_a_good_program() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "ok.fut",
        "def main (xs: []f32) : f32 = reduce (+) 0 xs\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn run_calls_the_entry_point_or_says_why_not() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "inc.fut", "def main (x: i32) : i32 = x + 1\n");
    let o = parad_with_stdin(&["run", s(&p)], "41");
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "42i32");
    let o = parad_with_stdin(&["run", s(&p), "-e", "nope"], "41");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("no entry point `nope`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dump_core_and_ad_print_the_ir() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "def main (xs: []f64) = map (\\x -> x * x) xs |> reduce (+) 0\n",
    );
    for stage in ["core", "ad", "opt"] {
        let o = parad(&["dump", &format!("--stage={stage}"), s(&p)]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("entry \"main\""), "{out}");
        if stage == "opt" {
            // Fusion has made the map and the reduction one `screma`.
            assert!(out.contains("screma(") && !out.contains("map("), "{out}");
        } else {
            assert!(out.contains("map(") && out.contains("reduce("), "{out}");
        }
    }
}

#[test]
fn dump_accepts_every_pass_name() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "entry main (x: f64) = vjp (\\x -> x * x) x 1.0\n",
    );
    for stage in [
        "lower",
        "simplify",
        "differentiate",
        "optimise",
        "fuse",
        "copies",
    ] {
        let o = parad(&["dump", &format!("--stage={stage}"), s(&p)]);
        assert_eq!(code(&o), 0, "{stage}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("entry \"main\""), "{stage}: {out}");
        // AD nodes are expanded by `differentiate`.
        let expanded = !matches!(stage, "lower" | "simplify");
        assert_eq!(out.contains("vjp"), !expanded, "{stage}: {out}");
    }
}

#[test]
fn dump_after_prints_the_ir_after_each_named_pass() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "entry main (x: f64) = vjp (\\x -> x * x) x 1.0\n",
    );
    let o = parad(&[
        "dump",
        "--stage=opt",
        "--dump-after=differentiate,lower",
        s(&p),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let lower = out.find("-- after lower\n").expect(&out);
    let ad = out.find("-- after differentiate\n").expect(&out);
    assert!(lower < ad, "{out}");
    assert_eq!(out.matches("entry \"main\"").count(), 3, "{out}");
    let o = parad(&["dump", "--stage=core", "--dump-after=hoist", s(&p)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    no_panic(&o);
}

#[test]
fn run_dump_after_writes_to_stderr() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "inc.fut", "def main (x: i32) : i32 = x + 1\n");
    let o = parad_with_stdin(&["run", "--dump-after", "optimise", s(&p)], "41");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "42i32");
    assert!(
        stderr(&o).starts_with("-- after optimise\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_time_errors_are_located() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "oob.fut",
        "def main (xs: []i32) (i: i64) : i32 =\n  xs[i] + 1\n",
    );
    let o = parad_with_stdin(&["run", s(&p)], "[1, 2, 3] 7i64");
    no_panic(&o);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("Index [7] out of bounds"), "{err}");
    assert!(err.contains("oob.fut:2:"), "{err}");
}

#[test]
fn differentiating_a_recursive_function_is_a_located_error() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "rec.fut",
        "def pow (n: i64) (x: f64) : f64 = if n <= 0 then 1 else x * pow (n - 1) x\n\
         entry fwd (x: f64) : f64 = jvp (pow 3) x 1\n\
         entry rev (x: f64) : f64 = vjp (\\y -> pow 2 y + y) x 1\n\
         entry plain (x: f64) : f64 = pow 3 x\n",
    );
    for (entry, line) in [("fwd", "rec.fut:2:"), ("rev", "rec.fut:3:")] {
        for backend in ["interp", "c", "multicore"] {
            let o = parad_with_stdin(&["run", "--backend", backend, "-e", entry, s(&p)], "2.0");
            no_panic(&o);
            assert_eq!(code(&o), 1, "{entry} on {backend}");
            let err = stderr(&o);
            assert!(
                err.starts_with("error: differentiating recursive functions is not supported"),
                "{err}"
            );
            assert!(err.contains("recursive function 'pow'"), "{err}");
            assert!(err.contains(line), "{err}");
        }
    }
    // The other entry points of the program are unaffected.
    let o = parad_with_stdin(&["run", "-e", "plain", s(&p)], "2.0");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "8.0f64");
}

#[test]
fn deep_recursion_in_c_is_an_error_not_a_crash() {
    let d = tempfile::tempdir().unwrap();
    // `a * a + n` keeps the C compiler from turning the recursion into a
    // loop.
    let p = write(
        d.path(),
        "deep.fut",
        "def f (n: i64) (k: i64) : i64 = if n == k then 0 else let a = f (n + 1) k in a * a + n\n\
         entry main (k: i64) : i64 = f 0 k\n",
    );
    let o = parad_with_stdin(&["run", "--backend", "c", s(&p)], "100000i64");
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Never ends without the stack running out.
    let o = parad_with_stdin(&["run", "--backend", "c", s(&p)], "-1i64");
    no_panic(&o);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.starts_with("error: call stack too deep"), "{err}");
    assert!(err.contains("deep.fut:1:"), "{err}");
}

#[test]
fn run_reads_unsuffixed_arguments_at_the_parameter_types() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "types.fut",
        "entry main (n: i64) (x: f64) (xs: []f32) (b: u8) : (i64, f64, f32, u8) =\n  \
         (n, x, f32.sum xs, b)\n",
    );
    for backend in ["interp", "c", "multicore"] {
        let o = parad_with_stdin(&["run", "--backend", backend, s(&p)], "49 2 [1, 2.5] 255");
        no_panic(&o);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(stdout(&o), "49i64\n2.0f64\n3.5f32\n255u8\n", "{backend}");
    }
    // A literal that does not fit: a located error, nothing run.
    let o = parad_with_stdin(&["run", "--backend", "interp", s(&p)], "49 2\n[1, 2] 300");
    no_panic(&o);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("line 2, column 8")
            && err.contains("300 does not fit in the expected type u8"),
        "{err}"
    );
    let o = parad_with_stdin(&["run", "--backend", "interp", s(&p)], "1.5 2 [1] 1");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("line 1, column 1") && err.contains("i64"),
        "{err}"
    );
    // A suffixed literal keeps its type, and a mismatch stays an error.
    let o = parad_with_stdin(&["run", "--backend", "interp", s(&p)], "49i32 2 [1] 1");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("argument 1") && err.contains("i32"), "{err}");
}

#[test]
fn test_reads_unsuffixed_inputs_at_the_parameter_types() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "t.fut",
        "-- ==\n-- input { 2 [1, 2] } output { 6f64 }\n\
         -- input { 2 [1.5, 2] } output { 7f64 }\n\
         -- input { 2 [-1, 2] }\n-- output { 2f64 }\n\
         entry main (k: f64) (xs: []i64) : f64 = k * f64.i64 (i64.sum xs)\n",
    );
    let o = parad(&["test", "--backend", "interp", s(&p)]);
    no_panic(&o);
    let out = stdout(&o);
    // The second case's 1.5 is no i64: a bad input, located in the file.
    assert!(out.contains("2 passed, 1 failed"), "{out}");
    assert!(out.contains("line 3") && out.contains("i64"), "{out}");
}

#[test]
fn run_reports_compile_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "bad.fut", "def main (x: i32) : i32 = (x\n");
    let o = parad_with_stdin(&["run", s(&p)], "1");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).starts_with("error:"), "{}", stderr(&o));
}

#[test]
fn test_prints_summary() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "type_error.fut",
        "-- ==\n-- error: .\n\ndef main (x: i32) : bool = x\n",
    );
    write(
        d.path(),
        "sub/runs.fut",
        "-- ==\n-- input { 1 } output { 2 }\n\ndef main (x: i32) : i32 = x + 1\n",
    );
    write(
        d.path(),
        "sub/disabled.fut",
        "-- ==\n-- tags { disable }\n-- input { 1 } output { 2 }\n",
    );
    let o = parad(&["test", s(d.path())]);
    no_panic(&o);
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    assert_eq!(last, "2 passed, 0 failed, 1 skipped", "{out}");
    assert_eq!(code(&o), 0, "{out}");
}

/// `--backend c` and `--threads` are accepted by run, test and bench;
/// whatever the C backend cannot compile yet is a skip for `test`, and
/// programs run (by the interpreter) when there is no C compiler.
#[test]
fn c_backend_and_threads_are_accepted() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "inc.fut",
        "-- ==\n-- input { 1 } output { 2 }\n-- compiled input { 2 } output { 3 }\n\ndef main (x: i32) : i32 = x + 1\n",
    );
    let o = parad(&["test", "--backend", "c", "--threads", "2", s(&p)]);
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = parad(&["bench", "--backend=c", "--threads=2", "-r", "1", s(&p)]);
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["test", "--backend", "c", s(&p)])
        .env("CC", "/nonexistent/cc")
        .output()
        .unwrap();
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stderr(&o),
        "parad: no C compiler found (/nonexistent/cc); using the interpreter\n"
    );
    assert!(
        stdout(&o).ends_with("1 passed, 0 failed, 1 skipped\n"),
        "{}",
        stdout(&o)
    );
    let o = parad_with_stdin(&["run", "--backend", "c", "--threads", "1", s(&p)], "41");
    no_panic(&o);
    if code(&o) == 0 {
        assert_eq!(stdout(&o).trim(), "42i32");
    } else {
        assert!(stderr(&o).contains("C"), "{}", stderr(&o));
    }
}

#[test]
fn test_fails_on_unexpected_compile_error() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "oops.fut",
        "-- ==\n-- input { 1 } output { 2 }\n\ndef main (x: i32) : i32 = x +\n",
    );
    let o = parad(&["test", s(&p)]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}");
    assert!(
        out.contains("oops.fut: compilation failed (1 case(s) not run):"),
        "{out}"
    );
    assert_eq!(
        out.lines().last(),
        Some("0 passed, 1 failed, 0 skipped"),
        "{out}"
    );
}

#[test]
fn test_on_missing_path() {
    let o = parad(&["test", "no/such/dir"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("error: no/such/dir"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_writes_json() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "b.fut",
        "-- ==\n-- input { 1 } output { 2 }\n\ndef main (x: i32) : i32 = x + 1\n",
    );
    let json = d.path().join("out.json");
    let o = parad(&["bench", "-r", "2", "--json", s(&json), s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&json).unwrap();
    // Measured once the interpreter runs programs; empty until then.
    assert!(text.contains("\"runtimes\"") || text == "{\n}\n", "{text}");
}

/// The compile-time `error:` regexes of a file's test blocks.
fn compile_error_regexes(path: &Path, text: &str) -> Vec<regex::Regex> {
    let Ok(spec) = parad_testrun::parse_spec(path, text) else {
        return vec![];
    };
    spec.blocks
        .iter()
        .flat_map(|b| &b.items)
        .filter_map(|i| match i {
            parad_testrun::spec::Item::CompileError { regex, .. } => Some(regex.clone()),
            _ => None,
        })
        .collect()
}

/// Programs of `tests/` that the front end gets wrong today, each with the
/// reason. The test fails when one of them starts to check, so that the
/// list only ever shrinks.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Every program in the repository's `tests/` folder type checks, except
/// those whose test block expects a compile-time error, which must fail
/// with a matching message.
#[test]
fn tests_folder_checks() {
    let Ok(root) = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .canonicalize()
    else {
        eprintln!("no tests/ folder; nothing to check");
        return;
    };
    let files = parad_testrun::find_fut_files(std::slice::from_ref(&root)).unwrap();
    let mut problems = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f.strip_prefix(&root).unwrap();
        // Any program whose test block expects a compile-time error must
        // fail with a matching message.
        let expected = compile_error_regexes(f, &text);
        let o = parad(&["check", s(f)]);
        let err = stderr(&o);
        let gap = KNOWN_GAPS.iter().find(|(g, _)| rel == Path::new(g));
        if let Some((g, why)) = gap {
            if code(&o) == 0 {
                problems.push(format!("{g} now checks: remove it from KNOWN_GAPS ({why})"));
            }
        } else if err.contains("panicked") {
            problems.push(format!("{}: parad panicked:\n{err}", rel.display()));
        } else if expected.is_empty() && code(&o) != 0 {
            problems.push(format!("{}: expected to check, got:\n{err}", rel.display()));
        } else if !expected.is_empty() && code(&o) != 1 {
            problems.push(format!(
                "{}: expected a compile error, but it checked",
                rel.display()
            ));
        } else if let Some(re) = expected.iter().find(|re| !re.is_match(&err)) {
            problems.push(format!(
                "{}: error does not match `{re}`:\n{err}",
                rel.display()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} programs:\n{}",
        problems.len(),
        files.len(),
        problems.join("\n")
    );
}

/// Every test block of the repository's `tests/` folder passes on the
/// interpreter, with the IR checker run after each pass.
#[test]
fn tests_folder_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["test", "--backend", "interp", s(&root)])
        .env("PARAD_CHECK_IR", "1")
        .output()
        .unwrap();
    no_panic(&o);
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    assert!(last.contains(" 0 failed"), "{out}\n{}", stderr(&o));
    assert_eq!(code(&o), 0, "{out}");
}

/// Every test block of `tests/` passes on the compiled C backend too
/// (cases marked `compiled` included: the C backend is not an
/// interpreter). Cases the C backend reports as unsupported are skipped;
/// they are listed in this test's output. Libraries are cached under
/// the target folder unless `PARAD_CACHE_DIR` says otherwise.
#[test]
fn tests_folder_passes_on_the_c_backend() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let cache = std::env::var_os("PARAD_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("parad-cache"));
    let root = root.canonicalize().unwrap();
    let files: Vec<PathBuf> = parad_testrun::find_fut_files(std::slice::from_ref(&root))
        .unwrap()
        .into_iter()
        .collect();
    let start = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["test", "--backend", "multicore"])
        .args(&files)
        .env("PARAD_CHECK_IR", "1")
        .env("PARAD_CACHE_DIR", &cache)
        .output()
        .unwrap();
    if o.status.code().is_none() {
        // Killed by a signal: find which programs crash, one at a time.
        let crashing: Vec<String> = files
            .iter()
            .filter_map(|f| {
                let o = Command::new(env!("CARGO_BIN_EXE_parad"))
                    .args(["test", "--backend", "multicore", s(f)])
                    .env("PARAD_CACHE_DIR", &cache)
                    .output()
                    .unwrap();
                let rel = f.strip_prefix(&root).unwrap().display();
                o.status
                    .code()
                    .is_none()
                    .then(|| format!("{rel}: {}", o.status))
            })
            .collect();
        panic!(
            "parad test --backend multicore died ({}); programs that crash it:\n{}",
            o.status,
            crashing.join("\n")
        );
    }
    no_panic(&o);
    let out = stdout(&o);
    let err = stderr(&o);
    // Without a C compiler the backend would fall back to the
    // interpreter, which is not what this test is for.
    assert!(
        !err.contains("no C compiler found"),
        "the C backend needs a C compiler:\n{err}"
    );
    let skipped: Vec<&str> = out.lines().filter(|l| l.contains(": skipped: ")).collect();
    eprintln!(
        "backend multicore: {} skipped case(s) in {:.1?}:\n{}",
        skipped.len(),
        start.elapsed(),
        skipped.join("\n")
    );
    let last = out.lines().last().unwrap_or("");
    eprintln!("backend multicore: {last}");
    assert!(last.contains(" 0 failed"), "{out}\n{err}");
    assert_eq!(code(&o), 0, "{out}\n{err}");
}

#[test]
fn an_entry_point_lowering_cannot_handle_is_skipped_alone() {
    // `unflatten` with both sizes unknown cannot be lowered yet; the other
    // entry point still runs.
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "-- ==\n-- entry: good bad\n-- input { [1, 2, 3, 4] } output { 10 }\n\
         entry good (xs: []i32) : i32 = i32.sum xs\n\
         def resh [n] [m] (xs: [n * m]i32) : [n][m]i32 = unflatten xs\n\
         entry bad (xs: []i32) : i32 = i32.sum (map i32.sum (resh xs))\n",
    );
    let o = parad(&["test", s(&p)]);
    no_panic(&o);
    let out = stdout(&o);
    assert!(out.contains("1 passed, 0 failed, 1 skipped"), "{out}");
    assert!(
        out.contains("entry bad") && out.contains("determined by the context"),
        "{out}"
    );
    assert_eq!(code(&o), 0, "{out}");
}

#[test]
fn errors_inside_prelude_code_and_ad_point_at_the_users_call() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "p.fut",
        "entry a (xs: []f64) (ys: []f64) = vjp (map (* 2)) xs ys\n\
         entry b (xs: []f64) (ys: []f64) = jvp (map (* 2)) xs ys\n\
         entry c (xs: []f64) (ys: []f64) = map2 (+) xs ys\n",
    );
    // The types make `xs` and `ys` one size, so the entry point's own
    // check of its arguments reports it (as Futhark's does).
    for (entry, line, what) in [
        ("a", "p.fut:1:", "entry point arguments have invalid sizes"),
        ("b", "p.fut:2:", "entry point arguments have invalid sizes"),
        ("c", "p.fut:3:", "size"),
    ] {
        let o = parad_with_stdin(&["run", s(&p), "-e", entry], "[1.0, 2.0] [1.0]");
        no_panic(&o);
        let err = stderr(&o);
        assert_eq!(code(&o), 1, "{err}");
        assert!(err.contains(line) && err.contains(what), "{entry}: {err}");
        assert!(!err.contains("prelude/"), "{entry}: {err}");
    }
}

/// `main` of a printed-IR program: the sum of squares of its argument
/// and, by `vjp`, its gradient; with a test block in `--` comments.
const PIR: &str = "-- ==
-- input { [1.0, 2.0, 3.0] } output { 14.0 [2.0, 4.0, 6.0] }
entry \"main\" = main : ([]f64) -> (f64, []f64)

fun main(xs_0: [?]f64): (f64, [?]f64) {
  let (s_1: f64, g_2: [?]f64) = vjp(\\(ys_3: [?]f64): f64 {
    let n_4: i64 = size(ys_3, 0)
    let sq_5: [n_4]f64 = map(n_4, [ys_3], \\(y_6: f64): f64 {
      let t_7: f64 = mul.f64(y_6, y_6)
      in t_7
    })
    let r_8: f64 = reduce_comm(n_4, [sq_5], [0.0f64], \\(a_9: f64, b_10: f64): f64 {
      let t_11: f64 = add.f64(a_9, b_10)
      in t_11
    })
    in r_8
  }, [xs_0], [1.0f64])
  in (s_1, g_2)
}
";

#[test]
fn printed_ir_files_run_test_dump_and_check_like_futhark_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "sq.pir", PIR);
    let run = parad_with_stdin(&["run", s(&p)], "[1.0, 2.0, 3.0]");
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "14.0f64\n[2.0f64, 4.0f64, 6.0f64]\n");
    let test = parad(&["test", s(&p)]);
    assert_eq!(code(&test), 0, "{}", stdout(&test));
    assert!(
        stdout(&test).contains("1 passed, 0 failed"),
        "{}",
        stdout(&test)
    );
    // A directory is searched for printed IR too.
    let test = parad(&["test", s(dir.path())]);
    assert!(
        stdout(&test).contains("1 passed, 0 failed"),
        "{}",
        stdout(&test)
    );
    assert_eq!(code(&parad(&["check", s(&p)])), 0);
    // The `lower` stage of a printed-IR file is the program read, as printed.
    let dump = parad(&["dump", "--stage=lower", s(&p)]);
    assert_eq!(code(&dump), 0, "{}", stderr(&dump));
    let printed: String = PIR.lines().skip(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(stdout(&dump).trim_end(), printed.trim_end());
    // After AD no `vjp` is left.
    let dump = parad(&["dump", "--stage=opt", s(&p)]);
    assert!(!stdout(&dump).contains("vjp("), "{}", stdout(&dump));
    let ast = parad(&["dump", "--stage=ast", s(&p)]);
    assert_eq!(code(&ast), 2, "{}", stderr(&ast));
}

#[test]
fn printed_ir_errors_are_located_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // A reading error: line 7 names an operation that does not exist.
    let bad = write(dir.path(), "bad.pir", &PIR.replace("mul.f64", "mull.f64"));
    for cmd in ["run", "check", "test"] {
        let o = parad(&[cmd, s(&bad)]);
        no_panic(&o);
        let text = stdout(&o) + &stderr(&o);
        assert_ne!(code(&o), 0, "{cmd}: {text}");
        assert!(text.contains("bad.pir:9:22"), "{cmd}: {text}");
    }
    // A type error found by the IR checker: an f32 constant as the neutral
    // element of an f64 addition.
    let ill = write(dir.path(), "ill.pir", &PIR.replace("[0.0f64]", "[0.0f32]"));
    let o = parad(&["check", s(&ill)]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("ill.pir:12:"), "{}", stderr(&o));
    // A run-time error is located at the statement that fails.
    let oob = "entry \"main\" = main : ([]f64) -> f64\n\n\
               fun main(xs_0: [?]f64): f64 {\n  let x_1: f64 = xs_0[3i64]\n  in x_1\n}\n";
    let oob = write(dir.path(), "oob.pir", oob);
    let o = parad_with_stdin(&["run", s(&oob)], "[1.0]");
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("oob.pir:4:"), "{}", stderr(&o));
}

/// The test blocks of the benchmark programs (`benchmarks/*/*.fut`) pass on
/// both backends, except the programs whose test blocks read inputs that
/// `benchmarks/run.sh` converts from the data folder into the git-ignored
/// `benchmarks/data/` (those run in the benchmark harness).
#[test]
fn benchmark_programs_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return;
    };
    let mut files: Vec<PathBuf> = dirs
        .flatten()
        .filter(|d| d.path().join("bench.json").exists())
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
        .map(|f| f.path())
        .filter(|f| f.extension().is_some_and(|e| e == "fut"))
        .filter(|f| !std::fs::read_to_string(f).unwrap().contains("@ ../data/"))
        .collect();
    files.sort();
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("parad-cache-benchmarks");
    for backend in ["interp", "c", "multicore"] {
        let o = Command::new(env!("CARGO_BIN_EXE_parad"))
            .args(["test", "--backend", backend])
            .args(&files)
            .env("PARAD_CACHE_DIR", &cache)
            .output()
            .unwrap();
        no_panic(&o);
        let out = stdout(&o);
        assert_eq!(code(&o), 0, "{backend}: {out}\n{}", stderr(&o));
        assert!(
            out.lines().last().unwrap_or("").contains(" 0 failed"),
            "{out}"
        );
    }
}

/// Runs parad (interpreter) with `stdin` and standard output going to `out`.
fn parad_to(args: &[&str], stdin: &str, out: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .env("PARAD_BACKEND", "interp")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parad");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().expect("run parad")
}

/// Commands with output, and their standard input.
fn commands_with_output(d: &Path) -> Vec<(Vec<String>, &'static str)> {
    let p = write(
        d,
        "p.fut",
        "-- ==\n-- input { 3i64 } output { [1i64, 2i64, 3i64] }\n\
         def main (n: i64) = map (+1) (iota n)\n",
    );
    write(d, "futhark.pkg", "require {\n}\n");
    let p = s(&p).to_string();
    let dir = s(d).to_string();
    let v = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (v(&["dump", "--stage=ast", &p]), ""),
        (v(&["dump", "--stage=elaborated", &p]), ""),
        (v(&["check", "--automap-stats", &p]), ""),
        (v(&["dump", "--stage=opt", &p]), ""),
        (v(&["dump", "--stage=opt", "--stats", &p]), ""),
        (v(&["dump", "--stage=opt", "--dump-after=lower", &p]), ""),
        (v(&["dump", "--stage=imp", &p]), ""),
        (v(&["dump", "--stage=c", &p]), ""),
        (v(&["run", &p]), "300000"),
        (v(&["run", "-b", &p]), "300000"),
        (v(&["test", &p]), ""),
        (v(&["bench", "-r", "1", &p]), ""),
        (v(&["pkg", "check", &dir]), ""),
    ]
}

/// A write error on standard output (a full disk) is an error message and
/// exit status 1, never a panic nor output lost with status 0.
#[test]
fn write_errors_on_standard_output_are_reported() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    for (args, input) in commands_with_output(d.path()) {
        let args: Vec<&str> = args.iter().map(|a| a.as_str()).collect();
        let sink = std::fs::OpenOptions::new().write(true).open(full).unwrap();
        let o = parad_to(&args, input, Stdio::from(sink));
        no_panic(&o);
        assert_eq!(code(&o), 1, "parad {args:?}\n{}", stderr(&o));
        assert!(
            stderr(&o).contains("error: cannot write to standard output"),
            "parad {args:?}\n{}",
            stderr(&o)
        );
    }
}

/// A reader that goes away early (`parad … | head`) ends the command
/// quietly: no panic, no message.
#[test]
fn closed_standard_output_ends_quietly() {
    let d = tempfile::tempdir().unwrap();
    for (args, input) in commands_with_output(d.path()) {
        let args: Vec<&str> = args.iter().map(|a| a.as_str()).collect();
        // The reading end is closed before parad starts, so that even a
        // command that writes at once finds no reader.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
            .args(&args)
            .env("PARAD_BACKEND", "interp")
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .spawn()
            .expect("start parad");
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let o = child.wait_with_output().unwrap();
        no_panic(&o);
        assert_eq!(code(&o), 1, "parad {args:?}\n{}", stderr(&o));
        assert_eq!(stderr(&o), "", "parad {args:?}");
    }
}

/// Diagnostics that cannot be written (standard error on a full disk) do
/// not make parad panic.
#[test]
fn write_errors_on_standard_error_do_not_panic() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "bad.fut", "def main = nosuch\n");
    let sink = std::fs::OpenOptions::new().write(true).open(full).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["check", s(&p)])
        .env("RUST_BACKTRACE", "0")
        .stderr(Stdio::from(sink))
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
}

/// Integers outside the type they are read at are located errors wherever
/// values are read (standard input of `parad run`, a test's inputs and
/// expected outputs) when unsuffixed; a suffixed literal wraps to its
/// type's width, as Futhark's value reader does (`300u8` is `44u8`).
#[test]
fn out_of_range_integers_are_located_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "u8.fut",
        "def main (x: u8) (ys: []u8) = x + ys[0]\n",
    );
    for (input, at) in [
        ("300 [1u8]", "line 1, column 1"),
        ("1u8\n[1u8, 256]", "line 2, column 7"),
        ("-129 [1]", "line 1, column 1"),
        ("1 [0x1ff]", "line 1, column 4"),
    ] {
        let o = parad_with_stdin(&["run", s(&p)], input);
        no_panic(&o);
        assert_eq!(code(&o), 1, "{input}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(at) && err.contains("does not fit in the expected type u8 (0 to 255)"),
            "{input}: {err}"
        );
    }
    let o = parad_with_stdin(&["run", s(&p)], "300u8 [1u8]");
    no_panic(&o);
    assert_eq!(stdout(&o).trim(), "45u8", "{}", stderr(&o));
    // In a test block: the input, and the expected output.
    let t = write(
        d.path(),
        "t.fut",
        "-- ==\n-- input { 1u8 [2u8] } output { 3u8 }\n\
         -- input { 300 [2u8] } output { 46u8 }\n\
         -- input { 1u8 [2u8] }\n-- output { 259u8 }\n\
         -- input { 300u8 [2u8] } output { 46u8 }\n\
         def main (x: u8) (ys: []u8) = x + ys[0]\n",
    );
    let o = parad(&["test", s(&t)]);
    no_panic(&o);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 passed, 1 failed"), "{out}");
    assert!(
        out.contains("line 3: 300 does not fit in the expected type u8"),
        "{out}"
    );
}

/// Runs `exe` with `stdin` and its arguments.
fn run_exe(exe: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the executable");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().expect("run the executable")
}

/// `parad c` and `parad multicore` build executables that print what
/// `parad run` prints (records and tuples as their fields, derivatives
/// included), libraries of three files, and report bad command lines,
/// missing files, type errors and unwritable outputs as errors.
#[test]
fn c_and_multicore_build_executables_and_libraries() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "p.fut",
        "entry main (xs: []f64) (k: i32) : (f64, []f64, {a: i32, b: bool}) =\n  \
         (f64.sum xs, map (*2) xs, {a = k + 1, b = k > 0})\n\
         entry grad (xs: []f64) = vjp (\\ys -> f64.sum (map (\\y -> y * y) ys)) xs 1.0\n\
         entry get (xs: []f64) (i: i64) = xs[i]\n",
    );
    let input = "[1.0, 2.0, 3.0] 4";
    let want = stdout(&parad_with_stdin(&["run", s(&p)], input));
    assert_eq!(want, "6.0f64\n[2.0f64, 4.0f64, 6.0f64]\n5i32\ntrue\n");
    for cmd in ["c", "multicore"] {
        let exe = dir.path().join(format!("p_{cmd}"));
        let o = parad(&[cmd, s(&p), "-o", s(&exe)]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        if !exe.is_file() {
            eprintln!("note: no executable (no C compiler?)");
            return;
        }
        let o = run_exe(&exe, &[], input);
        assert_eq!((code(&o), stdout(&o)), (0, want.clone()), "{}", stderr(&o));
        let o = run_exe(&exe, &["-e", "grad"], "[1.0, -2.5]");
        assert_eq!(stdout(&o), "[2.0f64, -5.0f64]\n");
        // Errors: the program's, with its location; the input's; the entry's.
        let o = run_exe(&exe, &["-e", "get"], "[1.0] 3");
        assert_eq!(code(&o), 1);
        assert!(stderr(&o).contains("p.fut:4:"), "{}", stderr(&o));
        let o = run_exe(&exe, &["-e", "get"], "[1.0, true] 3");
        assert_eq!(code(&o), 1);
        assert!(stderr(&o).starts_with(s(&exe)), "{}", stderr(&o));
        let o = run_exe(&exe, &["-e", "nope"], "");
        assert_eq!(code(&o), 1);
        assert!(stderr(&o).contains("grad"), "{}", stderr(&o));
        // A library.
        let lib = dir.path().join(format!("lib_{cmd}"));
        let o = parad(&[cmd, "--library", s(&p), "-o", s(&lib)]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        for ext in ["c", "h", "json"] {
            assert!(lib.with_extension(ext).is_file(), "{ext}");
        }
        let header = std::fs::read_to_string(lib.with_extension("h")).unwrap();
        assert!(header.contains("int futhark_entry_grad(struct futhark_context *ctx, struct futhark_f64_1d **out0, const struct futhark_f64_1d *in0);"), "{header}");
        assert!(header.contains(&format!("#define FUTHARK_BACKEND_{cmd}")));
        let manifest = std::fs::read_to_string(lib.with_extension("json")).unwrap();
        assert!(
            manifest.contains(&format!("\"backend\": \"{cmd}\"")),
            "{manifest}"
        );
        assert!(
            manifest.contains("\"cfun\": \"futhark_entry_main\""),
            "{manifest}"
        );
    }
    // Bad command lines and programs.
    let o = parad(&["c", s(&p), "-o", s(&p)]);
    assert_eq!(code(&o), 2);
    let o = parad(&["c", "--library", "--server", s(&p)]);
    assert_eq!(code(&o), 2);
    let o = parad(&["c", s(&dir.path().join("missing.fut"))]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("missing.fut"));
    let bad = write(dir.path(), "bad.fut", "def main x = x + true\n");
    let o = parad(&["multicore", s(&bad)]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("bad.fut:1:"), "{}", stderr(&o));
    let o = parad(&[
        "c",
        "--library",
        s(&p),
        "-o",
        s(&dir.path().join("no/such/dir/x")),
    ]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    no_panic(&o);
}

/// Tuning parameters (`#[param(NAME)]`) in executables and libraries:
/// listed by `--print-params` and in the manifest (per entry point that
/// reads them), set by `--param` and `--tuning`, unknown names refused.
#[test]
fn executables_take_tuning_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "p.fut",
        "def step : i64 = #[param(step)] 2\n\
         entry main (x: i64) = x * step + #[param(base)] 1\n\
         entry other (x: i64) = x\n",
    );
    let exe = dir.path().join("p");
    let o = parad(&["multicore", s(&p), "-o", s(&exe)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    if !exe.is_file() {
        eprintln!("note: no executable (no C compiler?)");
        return;
    }
    let o = run_exe(&exe, &["--print-params"], "");
    assert_eq!(stdout(&o), "step (user)\nbase (user)\n");
    assert_eq!(stdout(&run_exe(&exe, &[], "10")), "21i64\n");
    let o = run_exe(&exe, &["--param", "step=3", "--param", "base=0"], "10");
    assert_eq!(stdout(&o), "30i64\n", "{}", stderr(&o));
    let t = write(dir.path(), "t", "base=5\n");
    let o = run_exe(&exe, &["--tuning", s(&t)], "10");
    assert_eq!(stdout(&o), "25i64\n", "{}", stderr(&o));
    let o = run_exe(&exe, &["--param", "nope=1"], "10");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("Unknown tuning parameter: nope"),
        "{}",
        stderr(&o)
    );
    let lib = dir.path().join("lib");
    let o = parad(&["multicore", "--library", s(&p), "-o", s(&lib)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let manifest = std::fs::read_to_string(lib.with_extension("json")).unwrap();
    assert!(
        manifest.contains("\"tuning_params\": [\"step\", \"base\"]"),
        "{manifest}"
    );
    assert!(manifest.contains("\"tuning_params\": []"), "{manifest}");
}
