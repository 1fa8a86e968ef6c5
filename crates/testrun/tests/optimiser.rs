//! The optimiser keeps meaning exactly: every case of every test block in
//! the repository's `tests/` folder runs on the interpreter twice, once
//! compiled with AD alone (no simplification, fusion or rewrite) and once
//! with the whole pipeline, and the two runs must give bit-identical
//! results (floats compared by their exact decimal form, so `-0.0` and
//! `0.0` differ), or the same error message.
//!
//! The comparison is exact rather than within a tolerance because every
//! rewrite of the optimiser is meant to keep IEEE results: constant
//! folding uses the interpreter's own arithmetic, and fusion and the
//! accumulator rewrite combine values in the same order as before.

use parad_driver::{Backend, Config, Interp};
use parad_testrun::spec::{Case, Item};
use parad_testrun::{case_input, find_fut_files, parse_spec};
use parad_values::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    let r = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    r.canonicalize().unwrap_or(r)
}

/// The exact form of results: `Debug` prints floats in their shortest
/// round-tripping decimal form, which identifies the value (up to NaN
/// payloads).
fn exact(r: &Result<Vec<Value>, parad_driver::DriverError>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("error: {}", e.render()),
    }
}

#[test]
fn optimised_and_unoptimised_programs_give_identical_results() {
    let plain = Interp::new(Config::for_stage("ad").unwrap());
    let optimised = Interp::new(Config::default());
    let mut compared = 0;
    let mut differences = vec![];
    for path in find_fut_files(&[root()]).unwrap() {
        let rel = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(spec) = parse_spec(&path, &text) else {
            continue;
        };
        if spec.tags().any(|t| matches!(t, "disable" | "no_interp")) {
            continue;
        }
        let cases: Vec<(&String, &Case)> = spec
            .blocks
            .iter()
            .flat_map(|b| &b.items)
            .flat_map(|item| match item {
                Item::Cases { entries, cases } => cases
                    .iter()
                    .flat_map(|c| entries.iter().map(move |e| (e, c)))
                    .collect(),
                _ => vec![],
            })
            .collect();
        if cases.is_empty() {
            continue;
        }
        // A program the front end rejects is rejected alike by both.
        let (Ok(mut a), Ok(mut b)) = (plain.load(&path), optimised.load(&path)) else {
            continue;
        };
        for (entry, case) in cases {
            if case.modifiers.iter().any(|m| m == "compiled") {
                continue;
            }
            let params = a.param_types(entry).unwrap_or_default();
            let Ok(Some(args)) = case_input(&path, case, &params) else {
                continue;
            };
            let ra = exact(&a.call(entry, args.clone()));
            let rb = exact(&b.call(entry, args));
            compared += 1;
            if ra != rb {
                differences.push(format!(
                    "{rel}: entry {entry}, line {}\n  without the optimiser: {}\n  with it:               {}",
                    case.line,
                    abbreviate(&ra),
                    abbreviate(&rb)
                ));
            }
        }
    }
    eprintln!("optimiser: {compared} calls compared");
    assert!(compared > 500, "only {compared} calls compared");
    assert!(
        differences.is_empty(),
        "{} call(s) differ with the optimiser:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

fn abbreviate(s: &str) -> String {
    if s.len() > 300 {
        format!("{}…", &s[..s.floor_char_boundary(300)])
    } else {
        s.to_string()
    }
}
