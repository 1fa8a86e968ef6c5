//! The runtime's thread pool (`runtime/pool.h`) under stress
//! (`pool_stress.c`): every iteration run once, in OpenMP's static
//! chunks; many tiny loops; nested loops; errors in iterations; critical
//! sections; many contexts at once and contexts freed right after use.
//! Compiled as plain C99 with POSIX threads (no OpenMP), then again under
//! ThreadSanitizer and under AddressSanitizer with UBSan where this
//! machine has them. Skipped (with a note) when no `cc` is on PATH.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const STRESS: &str = include_str!("pool_stress.c");

fn have_cc() -> bool {
    let ok = Command::new("cc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("note: no `cc` on PATH; thread pool test skipped");
    }
    ok
}

fn work_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pool");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles the runtime and the stress test into `name` with `flags`;
/// `None` when the flags do not work here even on a trivial program (a
/// sanitizer runtime may be missing), a panic when the test does not
/// compile.
fn compile(dir: &Path, name: &str, flags: &[&str]) -> Option<PathBuf> {
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, format!("{}\n{STRESS}", parad_cgen::RUNTIME)).unwrap();
    let cc = |src: &Path, out: &Path| {
        Command::new("cc")
            .args(flags)
            .arg(src)
            .arg("-o")
            .arg(out)
            .arg("-lm")
            .output()
            .unwrap()
    };
    let out = cc(&c, &exe);
    if out.status.success() {
        return Some(exe);
    }
    let probe = dir.join(format!("{name}_probe.c"));
    std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
    let probe_exe = dir.join(format!("{name}_probe"));
    let works = cc(&probe, &probe_exe).status.success()
        && Command::new(&probe_exe)
            .output()
            .is_ok_and(|o| o.status.success());
    if !works {
        eprintln!("note: `cc {}` unavailable; skipped", flags.join(" "));
        return None;
    }
    panic!(
        "C compilation of {name} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn run(exe: &Path, scale: u32) {
    let out = Command::new(exe)
        .arg(scale.to_string())
        .env("TSAN_OPTIONS", "halt_on_error=1")
        .env("ASAN_OPTIONS", "detect_leaks=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{}{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
}

const WARNINGS: &[&str] = &["-Wall", "-Wextra", "-Werror"];

#[test]
fn pool_stress_plain_c99() {
    if !have_cc() {
        return;
    }
    let flags: Vec<&str> = ["-std=c99", "-O2", "-pthread"]
        .iter()
        .chain(WARNINGS)
        .copied()
        .collect();
    let exe = compile(&work_dir(), "pool_c99", &flags).unwrap();
    run(&exe, 100);
}

#[test]
fn pool_stress_thread_sanitizer() {
    if !have_cc() {
        return;
    }
    let flags = ["-std=c99", "-O1", "-g", "-pthread", "-fsanitize=thread"];
    if let Some(exe) = compile(&work_dir(), "pool_tsan", &flags) {
        run(&exe, 20);
    }
}

#[test]
fn pool_stress_address_sanitizer() {
    if !have_cc() {
        return;
    }
    let flags = [
        "-std=c99",
        "-O1",
        "-g",
        "-pthread",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-fno-omit-frame-pointer",
    ];
    if let Some(exe) = compile(&work_dir(), "pool_asan", &flags) {
        run(&exe, 20);
    }
}
