//! Properties of the rule-based simplifier over the simplifier's own
//! pass tests (`crates/driver/tests/filetests/opt/simplify_*.pir`): it
//! reaches a fixed point (a second run changes nothing) and leaves a
//! program the IR checker accepts.

use parad_core::{check_program, parse_program};
use std::path::Path;

/// The input programs of the simplifier's pass tests.
fn inputs() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../driver/tests/filetests/opt");
    let mut out = vec![];
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.starts_with("simplify") && name.ends_with(".pir")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let input = text.split("\n-- expect:").next().unwrap().to_string();
        out.push((name, input));
    }
    assert!(out.len() >= 10, "found only {} tests in {dir:?}", out.len());
    out
}

fn fixed_point(simplify: fn(&mut parad_core::Program)) {
    for (name, text) in inputs() {
        let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        simplify(&mut p);
        check_program(&p).unwrap_or_else(|e| panic!("{name}: {e}\n{p}"));
        let once = p.to_string();
        simplify(&mut p);
        assert_eq!(once, p.to_string(), "{name}: a second run changed it");
    }
}

#[test]
fn a_second_run_changes_nothing() {
    fixed_point(parad_opt::simplify);
}

#[test]
fn rule_names_are_unique() {
    let mut names: Vec<_> = parad_opt::simplify::RULES.iter().map(|r| r.name).collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(n, names.len());
}
