//! Text tests of AUTOMAP's elaboration: for each `tests/automap/NAME.fut`
//! with a `NAME.elab` beside it, `parad dump --stage=elaborated NAME.fut`
//! prints exactly `NAME.elab` (every implicit map and replicate explicit).
//! `PARAD_BLESS=1` rewrites the `.elab` files from the current output.

mod corpus;

use corpus::{fut_files, root};
use std::process::Command;

#[test]
fn elaborations_are_as_expected() {
    let mut files = vec![];
    fut_files(&root().join("tests/automap"), &mut files);
    let bless = std::env::var_os("PARAD_BLESS").is_some();
    let mut checked = 0;
    let mut failures = vec![];
    for fut in files {
        let elab = fut.with_extension("elab");
        if !elab.exists() {
            continue;
        }
        let o = Command::new(env!("CARGO_BIN_EXE_parad"))
            .args(["dump", "--stage=elaborated"])
            .arg(&fut)
            .output()
            .expect("run parad");
        assert!(
            o.status.success(),
            "{}: {}",
            fut.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let got = String::from_utf8(o.stdout).expect("UTF-8 output");
        if bless {
            std::fs::write(&elab, &got).unwrap();
        }
        let want = std::fs::read_to_string(&elab).unwrap();
        if got != want {
            failures.push(format!(
                "{}: elaboration differs\n--- expected\n{want}\n--- got\n{got}",
                fut.display()
            ));
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} elaboration tests found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A program that checks as written elaborates to itself.
#[test]
fn programs_without_implicit_maps_are_left_as_written() {
    let p = root().join("tests/automap/sum_length_explicit.fut");
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["dump", "--stage=elaborated"])
        .arg(&p)
        .output()
        .expect("run parad");
    assert!(o.status.success());
    let text = std::fs::read_to_string(&p).unwrap();
    let program = parad_syntax::parse(parad_base::FileId(0), &text).unwrap();
    let printed = String::from_utf8(o.stdout).unwrap();
    assert_eq!(printed, parad_syntax::print::program(&program));
}

/// Elaborating the same program twice gives the same text.
#[test]
fn elaboration_is_deterministic() {
    let p = root().join("tests/automap/thesis.fut");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_parad"))
            .args(["dump", "--stage=elaborated"])
            .arg(&p)
            .output()
            .expect("run parad")
            .stdout
    };
    let first = run();
    assert!(!first.is_empty());
    for _ in 0..3 {
        assert_eq!(run(), first);
    }
}

/// Every program of `tests/` and `benchmarks/` type checks the same with
/// AUTOMAP run on every definition (`PARAD_AUTOMAP=always`): a definition
/// that checks as written has no implicit map or replicate, and the
/// programs that fail to check fail as before.
#[test]
fn automap_leaves_every_checked_definition_alone() {
    let mut files = vec![];
    fut_files(&root().join("tests"), &mut files);
    fut_files(&root().join("benchmarks"), &mut files);
    assert!(files.len() > 100);
    let mut bugs = vec![];
    for f in &files {
        let run = |mode: &str| {
            Command::new(env!("CARGO_BIN_EXE_parad"))
                .args(["check"])
                .arg(f)
                .env("PARAD_AUTOMAP", mode)
                .current_dir(f.parent().unwrap())
                .output()
                .expect("run parad")
        };
        let (always, default) = (run("always"), run("fallback"));
        let err = String::from_utf8_lossy(&always.stderr).into_owned();
        if err.contains("(a bug)") || always.status.code() != default.status.code() {
            bugs.push(format!("{}:\n{err}", f.display()));
        }
    }
    assert!(bugs.is_empty(), "{}", bugs.join("\n"));
}
