//! `parad repl` driven through standard input (not a terminal: no
//! prompts, values on stdout, errors on stderr).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `parad repl ARGS` in `dir` with `input` on standard input.
fn repl_in(dir: Option<&Path>, args: &[&str], input: &[u8]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_parad"));
    cmd.arg("repl")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("parad starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("parad ends");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "parad panicked:\n{err}");
    assert!(!err.contains("internal error"), "internal error:\n{err}");
    out
}

fn repl(input: &str) -> Output {
    repl_in(None, &[], input.as_bytes())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output is exactly `expected`, nothing went to standard error
/// and the exit status is 0.
fn expect_clean(input: &str, expected: &str) {
    let o = repl(input);
    assert_eq!(stderr(&o), "", "stderr for input:\n{input}");
    assert_eq!(stdout(&o), expected, "stdout for input:\n{input}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn definitions_then_expressions() {
    expect_clean(
        "def sq (x: f64) = x * x\n\
         sq 3.0\n\
         1 + 2\n\
         let y = 5\n\
         y * 2\n\
         let z = 1 in z + y\n\
         type pt = {x: f32, y: f32}\n\
         def origin : pt = {x = 0, y = 0}\n\
         origin.y\n\
         module M = { def k = 7i64 }\n\
         M.k\n\
         open M\n\
         k + 1\n\
         local def hidden = true\n\
         hidden\n\
         -- a comment alone is no input\n\
         \n\
         map (+1) (iota 3)\n",
        "9.0f64\n3i32\n10i32\n6i32\n0.0f32\n7i64\n8i64\ntrue\n[1i64, 2i64, 3i64]\n",
    );
}

#[test]
fn values_print_in_futhark_syntax() {
    expect_clean(
        "(1, [2.0f32, 3])\n\
         {b = true, a = 1u8}\n\
         zip [1, 2] [true, false]\n\
         [{x = 1i64, y = (2i8, 3u16)}]\n\
         type t = #none | #some i32 | #pair (i32, bool)\n\
         (#some 4) : t\n\
         (#none) : t\n\
         [#pair (1, true), #none] : []t\n\
         ([] : [](i32, f64))\n\
         replicate 2 ([] : []i32)\n\
         ()\n\
         f64.inf\n",
        "(1i32, [2.0f32, 3.0f32])\n\
         {a = 1u8, b = true}\n\
         [(1i32, true), (2i32, false)]\n\
         [{x = 1i64, y = (2i8, 3u16)}]\n\
         #some 4i32\n\
         #none\n\
         [#pair (1i32, true), #none]\n\
         empty([0](i32, f64))\n\
         empty([2][0]i32)\n\
         ()\n\
         f64.inf\n",
    );
}

#[test]
fn type_command() {
    expect_clean(
        "def f (x: i32) (y: f32) = (x, y)\n\
         :type f\n\
         :type iota 3\n\
         :type {a = 1.0, b = [true]}\n\
         :t f 1\n",
        "i32 -> f32 -> (i32, f32)\n[3]i64\n{a: f64, b: [1]bool}\nf32 -> (i32, f32)\n",
    );
}

#[test]
fn multi_line_input() {
    expect_clean(
        "[1,\n 2,\n 3]\n\
         let a = 2 in\n  a * 10\n\
         1 +\n  2 *\n  3\n\
         def g (x: i32) =\n  x + 100\n\
         g 1\n\
         (\n4\n)\n",
        "[1i32, 2i32, 3i32]\n20i32\n7i32\n101i32\n4i32\n",
    );
}

#[test]
fn empty_line_ends_unfinished_input() {
    let o = repl("(1 +\n\n5\n");
    assert_eq!(stdout(&o), "5i32\n");
    let e = stderr(&o);
    assert!(e.contains("error: Unexpected end of file"), "{e}");
    assert!(e.contains("<stdin>:1:5"), "{e}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn redefinitions_shadow_and_keep_earlier_meanings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lib.fut"), "def triple (x: i32) = 3 * x\n").unwrap();
    std::fs::write(
        dir.path().join("prog.fut"),
        "import \"lib\"\nlocal def secret = 42i32\nentry main (x: i32) = triple x + secret\n\
         module M = { def m = 3i32 }\nopen M\n",
    )
    .unwrap();
    let o = repl_in(
        Some(dir.path()),
        &["prog.fut"],
        b"def x = 1\n\
          def y = x + 1\n\
          def x = 10\n\
          x + y\n\
          def secret = 0i32\n\
          secret\n\
          main 1\n\
          triple m\n\
          def triple (x: i32) = x\n\
          triple m\n\
          main 1\n\
          entry main (x: i32) = x\n\
          main 1\n\
          type t = i32\n\
          type t = bool\n\
          true : t\n\
          def x = 1 + true\n\
          x\n",
    );
    assert_eq!(
        stdout(&o),
        "12i32\n0i32\n45i32\n9i32\n3i32\n45i32\n1i32\ntrue\n10i32\n"
    );
    let e = stderr(&o);
    assert!(e.contains("<stdin>:17:"), "{e}");
    assert_eq!(e.matches("error").count(), 1, "{e}");
}

#[test]
fn derivatives() {
    expect_clean(
        "def f (x: f64) = x * x * x\n\
         vjp f 2.0 1.0\n\
         jvp f 2.0 1.0\n\
         jvp (\\(x, y) -> x * y) (3.0, 4.0) (1.0, 0.0)\n\
         vjp (map f64.sin) [0.0, 0.0] [1.0, 2.0]\n",
        "12.0f64\n12.0f64\n4.0f64\n[1.0f64, 2.0f64]\n",
    );
}

#[test]
fn errors_are_reported_and_the_session_goes_on() {
    let o = repl(
        "def x = 1\n\
         1 + + 2\n\
         x + true\n\
         [1, 2][5]\n\
         nosuchname\n\
         def x = nosuchname\n\
         x\n",
    );
    assert_eq!(stdout(&o), "1i32\n");
    let e = stderr(&o);
    // Syntax error, at its line of the script.
    assert!(e.contains("<stdin>:2:5"), "{e}");
    // Type error.
    assert!(e.contains("<stdin>:3:"), "{e}");
    // Run-time error.
    assert!(e.contains("out of bounds"), "{e}");
    assert!(e.contains("<stdin>:4:1"), "{e}");
    assert!(e.contains("Unknown name \"nosuchname\""), "{e}");
    assert!(e.contains("<stdin>:5:1"), "{e}");
    // The failed declaration left `x` as it was.
    assert!(e.contains("<stdin>:6:9"), "{e}");
    assert_eq!(e.matches("error").count(), 5, "{e}");
    assert!(!e.contains("parad_repl"), "generated name shown:\n{e}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn functions_and_ambiguous_values_are_explained() {
    let o = repl("def f (x: i32) = x\nf\n\\x -> x\n[]\nf 2\n");
    assert_eq!(stdout(&o), "2i32\n");
    let e = stderr(&o);
    assert!(
        e.contains("error: a function cannot be printed (the expression has type i32 -> i32)"),
        "{e}"
    );
    assert!(e.contains("ambiguous"), "{e}");
    assert!(!e.contains("parad_repl"), "generated name shown:\n{e}");
}

#[test]
fn deep_recursion_is_an_error() {
    let o = repl(
        "def down (n: i64): i64 = if n == 0 then 0 else 1 + down (n - 1)\n\
         down 10\n\
         down 100000000\n\
         3\n",
    );
    assert_eq!(stdout(&o), "10i64\n3i32\n");
    assert!(stderr(&o).contains("error"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn commands() {
    let o = repl(":help\n:frobnicate\n:\n:type\n1\n:quit\n2\n");
    let out = stdout(&o);
    for c in [":type", ":load", ":help", ":quit"] {
        assert!(out.contains(c), "{out}");
    }
    assert!(out.ends_with("1i32\n"), "{out}");
    let e = stderr(&o);
    assert!(
        e.contains("unknown command ':frobnicate'; the commands are :type, :load, :help, :quit"),
        "{e}"
    );
    assert!(e.contains("unknown command ':'"), "{e}");
    assert!(e.contains("usage: :type EXPR"), "{e}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn load_files() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("lib.fut"), "def triple (x: i32) = 3 * x\n").unwrap();
    std::fs::write(
        sub.join("prog.fut"),
        "import \"lib\"\nlocal def secret = 42i32\ndef f (x: i32) = triple x + secret\n\
         entry main (x: i32) = f x\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("other.fut"), "def g = 5i32\n").unwrap();
    std::fs::write(dir.path().join("bad.fut"), "def g = 1 +\n").unwrap();
    let o = repl_in(
        Some(dir.path()),
        &["sub/prog.fut"],
        b"f 1\nmain 2\nsecret\ndef h = 9i32\nh\n\
          :load other.fut\ng\nh\nf 1\n\
          :load bad.fut\ng\n\
          :load\ng\n\
          :load missing.fut\n\
          :l sub/prog.fut\nf 0\n",
    );
    assert_eq!(
        stdout(&o),
        "45i32\n48i32\n42i32\n9i32\n5i32\n5i32\n5i32\n42i32\n"
    );
    let e = stderr(&o);
    // `h` and `f` went with the declarations :load replaced.
    assert!(e.contains("Unknown name \"h\""), "{e}");
    assert!(e.contains("Unknown name \"f\""), "{e}");
    // The syntax error is located in the file loaded.
    assert!(e.contains("bad.fut:"), "{e}");
    assert!(e.contains("cannot read missing.fut"), "{e}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_file_that_does_not_load_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let o = repl_in(Some(dir.path()), &["nothere.fut"], b"1 + 1\n");
    assert_eq!(stdout(&o), "2i32\n");
    assert!(stderr(&o).contains("cannot read nothere.fut"));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn odd_input_does_not_crash() {
    let o = repl_in(
        None,
        &[],
        b"\xff\xfe\n1\n\"unclosed\n\n2\n[[[[[[[[[[[[[[[[[[[[\n\n3",
    );
    assert_eq!(stdout(&o), "1i32\n2i32\n3i32\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn ctrl_c_stops_the_evaluation_and_the_session_goes_on() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parad starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let (lines, errs) = mpsc::channel();
    let err = BufReader::new(child.stderr.take().expect("stderr"));
    let reader = std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    // Once a value is printed, the session (and its Ctrl-C handler) runs.
    writeln!(stdin, "1 + 1").unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line, "2i32\n");
    // Minutes in the interpreter: stopped by SIGINT. A signal that comes
    // before the evaluation starts is not for it, so it is sent again
    // until the evaluation says it was interrupted.
    writeln!(stdin, "loop x = 0i64 for i < 4000000000i64 do x + i").unwrap();
    let mut said = vec![];
    'wait: for _ in 0..60 {
        let killed = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        while let Ok(l) = errs.recv_timeout(Duration::from_secs(1)) {
            said.push(l);
            if said
                .last()
                .is_some_and(|l| l.contains("error: interrupted"))
            {
                break 'wait;
            }
        }
    }
    assert!(
        said.iter().any(|l| l.contains("error: interrupted")),
        "{said:?}"
    );
    // The handler of the last signal has run before the message: the next
    // evaluation is not interrupted.
    writeln!(stdin, "1 + 2").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().expect("parad ends");
    reader.join().expect("stderr reader");
    said.extend(errs.try_iter());
    assert_eq!(status.code(), Some(0), "{said:?}");
    assert_eq!(rest, "3i32\n", "{said:?}");
}
