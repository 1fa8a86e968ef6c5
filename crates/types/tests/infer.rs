//! Inferred types of functions and entry points.

mod common;
use common::*;

#[test]
fn prelude_checks() {
    let c = check("");
    assert!(c.typed.funs.iter().any(|f| f.name == "map"));
    assert!(c.entries.is_empty());
}

#[test]
fn map_reduce_entry() {
    let c = check("def main (xs: []f32) = reduce (+) 0 (map (\\x -> x * 2) xs)");
    assert_eq!(c.entries.len(), 1);
    assert_eq!(c.entries[0].params, vec!["[]f32"]);
    assert_eq!(c.entries[0].results, vec!["f32"]);
}
