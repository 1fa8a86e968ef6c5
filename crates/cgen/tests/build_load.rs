//! Building C text into a shared library through the cache: a second
//! build is cached, concurrent builds agree, compiler errors and a
//! missing compiler are reported. (Loading and calling generated programs
//! is tested through the driver, in `crates/driver/tests/c_api.rs`.)
//! Skipped (with a note) when there is no C compiler.

use parad_cgen::build::{build_with, compiler_version, BuildError, BuildOptions, Built};
use std::path::Path;

/// A small library.
const FIXTURE: &str = "#include <stdint.h>\nint64_t fixture_sum(const int64_t *xs, int64_t n) {\n  int64_t s = 0;\n  for (int64_t i = 0; i < n; i++) s += xs[i];\n  return s;\n}\n";

/// Options with the environment's compiler and a cache in `dir`, or
/// `None` (after a note) when there is no compiler.
fn options(dir: &Path) -> Option<BuildOptions> {
    let mut o = BuildOptions::from_env();
    o.cache_dir = dir.join("c");
    match compiler_version(&o.cc) {
        Ok(_) => Some(o),
        Err(e) => {
            eprintln!("note: skipped, {e}");
            None
        }
    }
}

fn mtime(p: &Path) -> std::time::SystemTime {
    std::fs::metadata(p).unwrap().modified().unwrap()
}

#[test]
fn second_build_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let first = build_with(FIXTURE, &o).unwrap();
    assert!(!first.cached);
    assert!(first.library.is_file());
    assert_eq!(std::fs::read_to_string(&first.source).unwrap(), FIXTURE);
    assert!(first.describe().starts_with("C compiled in"));
    let before = mtime(&first.library);
    let second = build_with(FIXTURE, &o).unwrap();
    assert!(second.cached);
    assert!(second.describe().starts_with("C library cached"));
    assert_eq!(
        (&second.library, &second.hash),
        (&first.library, &first.hash)
    );
    assert_eq!(mtime(&second.library), before);
    // Other flags, another library.
    let mut o2 = o.clone();
    o2.extra_flags.push("-DPARAD_TEST_FLAG=1".into());
    let third = build_with(FIXTURE, &o2).unwrap();
    assert!(!third.cached);
    assert_ne!(third.hash, first.hash);
}

#[test]
fn concurrent_builds_agree() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let text = format!("{FIXTURE}\n/* concurrent */\n");
    let built: Vec<Built> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4).map(|_| s.spawn(|| build_with(&text, &o))).collect();
        hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    assert!(built.iter().all(|b| b.library == built[0].library));
    let mut names: Vec<String> = std::fs::read_dir(&o.cache_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let h = &built[0].hash;
    assert_eq!(
        names,
        [format!("{h}.c"), format!("{h}.so")],
        "temporaries left"
    );
}

#[test]
fn compiler_errors_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let e = build_with("int f(void) { return ; ] }\n", &o).unwrap_err();
    let BuildError::Failed {
        message, source, ..
    } = &e
    else {
        panic!("expected a compiler failure, got {e}")
    };
    assert!(message.contains("error"), "{message}");
    assert!(source.is_file());
    assert!(e.to_string().contains(&source.display().to_string()));
}

#[test]
fn missing_compiler() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = BuildOptions::from_env();
    o.cc = vec!["/nonexistent".into()];
    o.cache_dir = dir.path().join("c");
    let e = build_with(FIXTURE, &o).unwrap_err();
    assert!(e.is_no_compiler(), "{e}");
    assert!(e.to_string().contains("/nonexistent"), "{e}");
}
