//! Property-based tests (`property:` items, `#[prop]` entry points) run
//! with the real interpreter: passing properties, counterexamples and
//! their shrinking, `gen`/`shrink`/`size`, errors in the declarations,
//! and reproducibility with a seed.

use parad_driver::{Config, Interp};
use parad_testrun::{run_file, Options, Summary};
use std::path::Path;

mod common;

use common::Dir;

fn counts(passed: usize, failed: usize, skipped: usize) -> Summary {
    Summary {
        passed,
        failed,
        skipped,
    }
}

/// Runs the file with the interpreter and `seed`.
fn run(path: &Path, seed: Option<u64>) -> (Summary, String) {
    let interp = Interp::new(Config::default());
    let options = Options {
        seed,
        ..Options::default()
    };
    let mut out = vec![];
    let s = run_file(&interp, path, &options, &mut out);
    (s, String::from_utf8(out).unwrap())
}

/// A test file with one `property:` line (line 2) naming `props`.
fn program(props: &str, code: &str) -> String {
    format!("-- ==\n-- property: {props}\n{code}")
}

/// The report of one counterexample found with `seed`.
fn counterexample(path: &Path, name: &str, tests: usize, value: &str, seed: u64) -> String {
    format!(
        "{}: property {name} (line 2): counterexample after {tests} tests: {value}\n  seed {seed} (rerun with --seed={seed} to reproduce)\n",
        path.display()
    )
}

/// The value in a one-counterexample report.
fn reported_value(out: &str) -> &str {
    let line = out.lines().next().unwrap();
    line.split_once("tests: ").unwrap().1
}

const SORTED: &str = "#[prop]\nentry sorted (xs: []i32) : bool =\n  let n = length xs in n < 2 || and (map (\\i -> xs[i] <= xs[i+1]) (iota (n-1)))\n";

#[test]
fn a_true_property_passes() {
    let d = Dir::new();
    let p = d.file(
        "rev.fut",
        &program(
            "rev_rev",
            "#[prop]\nentry rev_rev (xs: []i32) = reverse (reverse xs) == xs\n",
        ),
    );
    let (s, out) = run(&p, Some(1));
    assert_eq!(s, counts(1, 0, 0), "{out}");
    assert_eq!(out, "");
}

#[test]
fn a_false_property_fails_with_a_shrunk_counterexample() {
    let d = Dir::new();
    let p = d.file("sorted.fut", &program("sorted", SORTED));
    let (s, out) = run(&p, Some(1));
    assert_eq!(s, counts(0, 1, 0), "{out}");
    assert_eq!(out, counterexample(&p, "sorted", 10, "[1i32, 0i32]", 1));
    // Whatever the seed, the counterexample is shrunk to two elements
    // that are each as near to zero as they can be: one of the two
    // minimal unsorted arrays.
    for seed in 2..8 {
        let (s, out) = run(&p, Some(seed));
        assert_eq!(s, counts(0, 1, 0), "{out}");
        let v = reported_value(&out);
        assert!(
            v == "[1i32, 0i32]" || v == "[0i32, -1i32]",
            "seed {seed}: {out}"
        );
    }
}

#[test]
fn the_unique_minimal_counterexample_is_found_for_every_seed() {
    let d = Dir::new();
    let p = d.file(
        "sorted_u.fut",
        &program("sorted", &SORTED.replace("[]i32", "[]u32")),
    );
    for seed in [0, 1, 99, u64::MAX] {
        let (s, out) = run(&p, Some(seed));
        assert_eq!(s, counts(0, 1, 0), "{out}");
        assert_eq!(reported_value(&out), "[1u32, 0u32]", "seed {seed}: {out}");
    }
}

#[test]
fn records_tuples_and_arrays_of_tuples_are_generated_and_shrunk() {
    let d = Dir::new();
    let p = d.file(
        "structs.fut",
        &program(
            "rec pair zipped",
            "#[prop]\nentry rec (r: {a: i64, b: f32}) = r.b < 3\n\
             #[prop]\nentry pair [n] (p: ([n]i32, [n]bool)) = length p.0 < 2\n\
             #[prop]\nentry zipped (xs: [](i32, bool)) = length xs < 2\n",
        ),
    );
    for seed in [3, 4] {
        let (s, out) = run(&p, Some(seed));
        assert_eq!(s, counts(0, 3, 0), "{out}");
        let values: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once("tests: "))
            .map(|(_, v)| v)
            .collect();
        assert_eq!(
            values,
            [
                "{a = 0i64, b = 3.0f32}",
                // Both arrays shortened together: `[n]` still holds.
                "([0i32, 0i32], [false, false])",
                "[(0i32, false), (0i32, false)]",
            ],
            "seed {seed}: {out}"
        );
    }
}

#[test]
fn gen_shrink_and_size_arguments_are_used() {
    let d = Dir::new();
    let p = d.file(
        "args.fut",
        &program(
            "sevens long small halving",
            "entry gen_sevens (size: i64) (seed: u64) : []i32 = replicate size 7\n\
             #[prop(gen(gen_sevens))]\nentry sevens (xs: []i32) = all (== 7) xs\n\
             #[prop(gen(gen_sevens))]\nentry long (xs: []i32) = length xs < 5\n\
             #[prop(size(3))]\nentry small (xs: []i32) = length xs <= 3 && all (\\x -> x >= -3 && x <= 3) xs\n\
             entry to_42s (xs: []i32) (r: u64) : []i32 = replicate (i64.max 3 (length xs - 1)) 42\n\
             #[prop(shrink(to_42s))]\nentry halving (xs: []i32) = length xs < 3\n",
        ),
    );
    let (s, out) = run(&p, Some(5));
    // `sevens` holds for the generator's values (not for random ones);
    // `small` holds because of `size(3)`.
    assert_eq!(s, counts(2, 2, 0), "{out}");
    let values: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once("tests: "))
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        values,
        [
            // The generator's smallest counterexample (size 5), then its
            // numbers shrunk.
            "[0i32, 0i32, 0i32, 0i32, 0i32]",
            // Only the user's shrinker makes 42s.
            "[42i32, 42i32, 42i32]",
        ],
        "{out}"
    );
    assert!(out.contains("property long (line 2)"), "{out}");
    assert!(out.contains("property halving (line 2)"), "{out}");
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let d = Dir::new();
    let p = d.file(
        "same.fut",
        &program(
            "sorted rec",
            &format!("{SORTED}#[prop]\nentry rec (r: {{a: i64, b: f32}}) = r.a < 10\n"),
        ),
    );
    let (s, first) = run(&p, Some(12345));
    assert_eq!(s, counts(0, 2, 0), "{first}");
    assert_eq!(run(&p, Some(12345)).1, first);
    // Without a seed, one is drawn and printed; it reproduces the run.
    let (_, drawn) = run(&p, None);
    let seed: u64 = drawn
        .split_once("--seed=")
        .unwrap()
        .1
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let (_, again) = run(&p, Some(seed));
    assert_eq!(
        again.lines().take(2).collect::<Vec<_>>(),
        drawn.lines().take(2).collect::<Vec<_>>()
    );
}

#[test]
fn declaration_errors_are_clear_failures() {
    let d = Dir::new();
    let p = d.file(
        "bad.fut",
        &program(
            "nothere plain two notbool badarg nogen badgen",
            "entry plain (x: i32) = x == x\n\
             #[prop]\nentry two (x: i32) (y: i32) = x == y\n\
             #[prop]\nentry notbool (x: i32) = x\n\
             #[prop(frob(1))]\nentry badarg (x: i32) = true\n\
             #[prop(gen(missing))]\nentry nogen (x: i32) = true\n\
             entry g (size: i64) : i32 = 0\n\
             #[prop(gen(g))]\nentry badgen (x: i32) = true\n",
        ),
    );
    let (s, out) = run(&p, Some(1));
    assert_eq!(s, counts(0, 7, 0), "{out}");
    let f = p.display();
    let expected = [
        format!("{f}: property nothere (line 2): declared as a property, but `nothere` is not an entry point"),
        format!("{f}: property plain (line 2): entry point `plain` is declared as a property, but has no #[prop] attribute"),
        format!("{f}: property two (line 2): entry point `two` has type `i32 -> i32 -> bool`, but a property must have type `t -> bool`"),
        format!("{f}: property notbool (line 2): entry point `notbool` has type `i32 -> i32`, but a property must have type `t -> bool`"),
        format!("{f}: property badarg (line 2): #[prop] argument `frob(1)` is not gen(f), shrink(f) or size(N) ({f}:8:8)"),
        format!("{f}: property nogen (line 2): the generator `missing` of property `nogen` is not an entry point"),
        format!("{f}: property badgen (line 2): the generator `g` of property `badgen` has type `i64 -> i32`, but must have type `i64 -> u64 -> i32`"),
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
}

#[test]
fn types_that_cannot_be_generated_are_skipped_unless_there_is_a_generator() {
    let d = Dir::new();
    let p = d.file(
        "abstract.fut",
        &program(
            "opaque with_gen",
            "module m : { type t val mk : i32 -> t val get : t -> i32 } = {\n\
             type t = i32\ndef mk (x: i32) = x\ndef get (x: t) = x\n}\n\
             #[prop]\nentry opaque (x: m.t) = m.get x < 5\n\
             entry gen_t (size: i64) (seed: u64) : m.t = m.mk (i32.i64 size)\n\
             #[prop(gen(gen_t))]\nentry with_gen (x: m.t) = m.get x < 5\n",
        ),
    );
    let (s, out) = run(&p, Some(1));
    assert_eq!(s, counts(0, 1, 1), "{out}");
    let f = p.display();
    assert!(
        out.starts_with(&format!(
            "{f}: property opaque (line 2): skipped: cannot generate values of the abstract type `m.t`: give `opaque` a generator with #[prop(gen(f))]\n"
        )),
        "{out}"
    );
    // The generator's smallest counterexample, shown by its leaves.
    assert!(
        out.contains("property with_gen (line 2): counterexample after 11 tests: <m.t: 5i32>\n"),
        "{out}"
    );
}

#[test]
fn a_run_time_error_on_a_candidate_is_reported_with_the_candidate() {
    let d = Dir::new();
    let p = d.file(
        "crash.fut",
        &program(
            "crash",
            "#[prop]\nentry crash (x: i32) = if x > 20 then assert false true else true\n",
        ),
    );
    let (s, out) = run(&p, Some(1));
    assert_eq!(s, counts(0, 1, 0), "{out}");
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "{}: property crash (line 2): run-time error after ",
            p.display()
        )),
        "{out}"
    );
    assert!(out.contains("Assertion is false"), "{out}");
    assert!(
        out.ends_with("  seed 1 (rerun with --seed=1 to reproduce)\n"),
        "{out}"
    );
}
