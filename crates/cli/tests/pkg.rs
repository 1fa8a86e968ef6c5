//! Packages in the `futhark pkg` layout: `parad pkg check` and imports of
//! `lib/github.com/owner/repo/...`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn parad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .env("PARAD_BACKEND", "interp")
        .output()
        .expect("run parad")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!e.contains("panicked"), "parad panicked:\n{e}");
    e
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

/// The project's own package test folder.
fn modules_pkg() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/modules_pkg")
}

#[test]
fn the_test_package_is_installed() {
    let o = parad(&["pkg", "check", s(&modules_pkg())]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("github.com/parad-tests/mini 0.1.0: installed"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn missing_packages_are_listed_and_fail() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "futhark.pkg",
        "-- a project\npackage github.com/me/proj\nrequire {\n  github.com/a/here 1.0.0 #0123456789abcdef\n  \
         github.com/a/gone 0.2.1\n  gitlab.com/b/c/also-gone 2.0.0-rc1\n}\n",
    );
    write(d.path(), "lib/github.com/a/here/here.fut", "def x = 1i32\n");
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let err = stderr(&o);
    assert!(out.contains("github.com/a/here 1.0.0: installed"), "{out}");
    assert!(out.contains("github.com/a/gone 0.2.1: missing"), "{out}");
    assert!(
        err.contains("2 of the 3 package(s)")
            && err.contains("github.com/a/gone 0.2.1 (required on line 5)")
            && err.contains("gitlab.com/b/c/also-gone 2.0.0-rc1 (required on line 6)")
            && err.contains("futhark pkg sync"),
        "{err}"
    );
    // Installing them makes the check pass.
    write(d.path(), "lib/github.com/a/gone/gone.fut", "def y = 2i32\n");
    write(
        d.path(),
        "lib/gitlab.com/b/c/also-gone/g.fut",
        "def z = 3i32\n",
    );
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn the_folder_defaults_to_the_current_one() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "futhark.pkg", "require {\n}\n");
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["pkg", "check"])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no packages required"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn malformed_manifests_are_errors_with_line_and_column() {
    let d = tempfile::tempdir().unwrap();
    let cases = [
        (
            "require {\n  github.com/a/b 1.2\n}\n",
            "futhark.pkg:2:18:",
            "version",
        ),
        (
            "require {\n  github.com/a/b 1.2.3\n",
            "futhark.pkg:2:",
            "'}'",
        ),
        (
            "require {\n\tnot-a-path 1.0.0\n}\n",
            "futhark.pkg:2:2:",
            "package path",
        ),
        (
            "require {\n  github.com/a/b 1.0.0 #zz\n}\n",
            "futhark.pkg:2:24:",
            "hash",
        ),
        (
            "needs {\n}\n",
            "futhark.pkg:1:1:",
            "expected 'package' or 'require'",
        ),
        (
            "require {\n  github.com/a/b 1.0.0\n  github.com/a/b 1.0.1\n}\n",
            "futhark.pkg:3:3:",
            "twice",
        ),
    ];
    for (text, at, what) in cases {
        write(d.path(), "futhark.pkg", text);
        let o = parad(&["pkg", "check", s(d.path())]);
        assert_eq!(code(&o), 1, "{text}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: ") && err.contains(at) && err.contains(what),
            "{text}: {err}"
        );
    }
    std::fs::write(d.path().join("futhark.pkg"), [0xffu8, 0xfe]).unwrap();
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
}

#[test]
fn no_manifest_or_no_folder_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no futhark.pkg in"), "{}", stderr(&o));
    let o = parad(&["pkg", "check", s(&d.path().join("nope"))]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("is not a folder"), "{}", stderr(&o));
}

#[test]
fn importing_a_package_resolves_relative_to_the_importing_file() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "proj/lib/github.com/o/r/r.fut",
        "import \"helper\"\ndef triple (x: i32) : i32 = 3 * helper x\n",
    );
    write(
        d.path(),
        "proj/lib/github.com/o/r/helper.fut",
        "def helper (x: i32) : i32 = x\n",
    );
    let p = write(
        d.path(),
        "proj/main.fut",
        "import \"lib/github.com/o/r/r\"\nentry main (x: i32) : i32 = triple x\n",
    );
    // Run from another folder: imports follow the file, not the working
    // folder.
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["run", "--backend", "interp", s(&p)])
        .current_dir(d.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"5");
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "15i32");
}

#[test]
fn importing_a_package_that_is_not_installed_says_how_to_install_it() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "main.fut",
        "import \"lib/github.com/o/absent/absent\"\nentry main (x: i32) : i32 = x\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("main.fut:1:1")
            && err.contains("package 'github.com/o/absent' is not installed")
            && err.contains("futhark pkg sync"),
        "{err}"
    );
    // An installed package without the file: no such note.
    write(
        d.path(),
        "lib/github.com/o/absent/other.fut",
        "def x = 1i32\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("cannot import") && !err.contains("not installed"),
        "{err}"
    );
    // A relative import that is not a package: no such note either.
    let p = write(
        d.path(),
        "m2.fut",
        "import \"lib/local/thing\"\ndef y = 1i32\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    assert!(!stderr(&o).contains("not installed"), "{}", stderr(&o));
}
