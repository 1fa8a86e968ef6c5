//! `parad fmt`: standard input to standard output, files in place,
//! `--check`, and files that do not parse or cannot be read.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn parad(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parad");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().expect("run parad")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const UGLY: &str = "def f (x: i32)=\n      x+1 -- one more\n";
const PRETTY: &str = "def f (x: i32) =\n  x + 1 -- one more\n";
const BAD: &str = "def g = 1 +\n\ndef h = 2\n";

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temporary path")
}

/// The names in a folder (to see that no temporary file is left behind).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn stdin_to_stdout() {
    let o = parad(&["fmt"], UGLY);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), PRETTY);
    assert_eq!(stderr(&o), "");
    // Already formatted text comes back unchanged.
    let o = parad(&["fmt"], PRETTY);
    assert_eq!((code(&o), stdout(&o)), (0, PRETTY.to_string()));
}

#[test]
fn stdin_check() {
    let o = parad(&["fmt", "--check"], PRETTY);
    assert_eq!((code(&o), stdout(&o)), (0, String::new()));
    let o = parad(&["fmt", "--check"], UGLY);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("<stdin> is not formatted"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stdin_parse_error_is_located() {
    let o = parad(&["fmt"], BAD);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("<stdin>:3:1"), "{err}");
    assert!(err.contains("Unexpected"), "{err}");
}

#[test]
fn files_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.fut");
    let b = dir.path().join("b.fut");
    std::fs::write(&a, UGLY).unwrap();
    std::fs::write(&b, PRETTY).unwrap();
    let o = parad(&["fmt", path_str(&a), path_str(&b)], "");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!((stdout(&o), stderr(&o)), (String::new(), String::new()));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), PRETTY);
    assert_eq!(std::fs::read_to_string(&b).unwrap(), PRETTY);
    // No temporary file is left in the folder.
    assert_eq!(names(dir.path()), ["a.fut", "b.fut"]);
}

#[cfg(unix)]
#[test]
fn in_place_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.fut");
    std::fs::write(&a, UGLY).unwrap();
    std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = parad(&["fmt", path_str(&a)], "");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mode = std::fs::metadata(&a).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn check_lists_unformatted_files_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.fut");
    let b = dir.path().join("b.fut");
    std::fs::write(&a, UGLY).unwrap();
    std::fs::write(&b, PRETTY).unwrap();
    let o = parad(&["fmt", "--check", path_str(&a), path_str(&b)], "");
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), format!("{}\n", a.display()));
    assert!(
        stderr(&o).contains("1 file is not formatted"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&a).unwrap(), UGLY);
    assert_eq!(std::fs::read_to_string(&b).unwrap(), PRETTY);
    // All formatted: exit 0, no output.
    let o = parad(&["fmt", "--check", path_str(&b)], "");
    assert_eq!(
        (code(&o), stdout(&o), stderr(&o)),
        (0, String::new(), String::new())
    );
}

#[test]
fn file_that_does_not_parse_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.fut");
    let good = dir.path().join("good.fut");
    std::fs::write(&bad, BAD).unwrap();
    std::fs::write(&good, UGLY).unwrap();
    let o = parad(&["fmt", path_str(&bad), path_str(&good)], "");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:3:1", bad.display())), "{err}");
    assert!(err.contains("Unexpected"), "{err}");
    // The bad file is untouched; the good one after it is still formatted.
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), BAD);
    assert_eq!(std::fs::read_to_string(&good).unwrap(), PRETTY);
    assert_eq!(names(dir.path()), ["bad.fut", "good.fut"]);
    // The same with --check: an error, nothing changed.
    let o = parad(&["fmt", "--check", path_str(&bad)], "");
    assert_eq!(code(&o), 1);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), BAD);
}

#[test]
fn missing_and_non_utf8_files() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.fut");
    let latin1 = dir.path().join("latin1.fut");
    std::fs::write(&latin1, b"def x = 1 -- caf\xe9\n").unwrap();
    let o = parad(&["fmt", path_str(&missing), path_str(&latin1)], "");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("missing.fut"), "{err}");
    assert!(err.contains("latin1.fut") && err.contains("UTF-8"), "{err}");
    assert_eq!(std::fs::read(&latin1).unwrap(), b"def x = 1 -- caf\xe9\n");
}
