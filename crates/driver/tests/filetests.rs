//! Pass tests as IR text, in the spirit of Cranelift's filetests: each
//! `filetests/**/*.pir` file (`opt/` for the optimiser, `ad/` for
//! automatic differentiation) holds a program in the printed core IR, the
//! passes to run on it, and the program expected after them. Reading the
//! expected text shows what a pass does far better than counting nodes,
//! and a change of behaviour shows up as a diff.
//!
//! A file looks like this:
//!
//! ```text
//! -- pass: simplify
//! -- run: main [1.0, 2.0] => 3.0
//! -- Any other `--` line is a comment.
//! entry "main" = main : ([]f64) -> f64
//! fun main(xs_0: [?]f64): f64 { … }
//! -- expect:
//! entry "main" = main : ([]f64) -> f64
//! fun main(xs_0: [?]f64): f64 { … }
//! ```
//!
//! - `-- pass: p q …` runs the passes in order: `cse`, `dce`, `simplify`,
//!   `hoist`, `acc_red`, `fuse`, `copies`, `optimise`, `differentiate`.
//! - `-- run: ENTRY ARGS` (any number) runs the entry point on the
//!   arguments (values as in Futhark's text format) before and after the
//!   passes: the results, or the error messages, must be the same (a
//!   program with AD operators, which only the `differentiate` pass makes
//!   runnable, is run after the passes only).
//!   `=> VALUES` also states the results, `=> error: TEXT` an error whose
//!   message contains `TEXT`.
//! - Everything after the `-- expect:` line is the expected program, as
//!   the printer writes it.
//!
//! The runner checks the input and the result with `check_program` and
//! compares the printed result with the expectation. To accept the
//! current output as the expectation (after reading it!), run
//!
//! ```sh
//! PARAD_BLESS=1 cargo test -p parad-driver --test filetests
//! ```
//!
//! which rewrites everything after `-- expect:` (appending that line to
//! a file that has none yet).

use parad_core::{check_program, parse_program, Program};
use parad_values::{read_values, Value};
use std::path::{Path, PathBuf};

const EXPECT: &str = "-- expect:";

/// One test file, split up.
struct FileTest {
    passes: Vec<String>,
    runs: Vec<Run>,
    /// The program text (with the header lines, which read as comments).
    input: String,
    expected: Option<String>,
}

struct Run {
    entry: String,
    args: String,
    outcome: Option<String>,
}

fn split(text: &str) -> Result<FileTest, String> {
    let (input, expected) = match text.find(&format!("\n{EXPECT}")) {
        Some(at) => {
            let rest = &text[at + 1 + EXPECT.len()..];
            (&text[..at + 1], Some(rest.trim().to_string()))
        }
        None if text.starts_with(EXPECT) => ("", Some(text[EXPECT.len()..].trim().to_string())),
        None => (text, None),
    };
    let mut passes = vec![];
    let mut runs = vec![];
    for line in input.lines() {
        if let Some(p) = line.strip_prefix("-- pass:") {
            passes.extend(p.split_whitespace().map(str::to_string));
        } else if let Some(r) = line.strip_prefix("-- run:") {
            let (call, outcome) = match r.split_once("=>") {
                Some((c, o)) => (c, Some(o.trim().to_string())),
                None => (r, None),
            };
            let call = call.trim();
            let (entry, args) = call.split_once(' ').unwrap_or((call, ""));
            runs.push(Run {
                entry: entry.to_string(),
                args: args.trim().to_string(),
                outcome,
            });
        }
    }
    if passes.is_empty() {
        return Err("no `-- pass:` line".into());
    }
    Ok(FileTest {
        passes,
        runs,
        input: input.to_string(),
        expected,
    })
}

fn run_pass(p: &mut Program, pass: &str) -> Result<(), String> {
    match pass {
        "cse" => p.funs.iter_mut().for_each(parad_opt::cse::cse_fun),
        "dce" => p.funs.iter_mut().for_each(|f| {
            parad_opt::simplify::dce_fun(f);
        }),
        "simplify" => parad_opt::simplify(p),
        "hoist" => parad_opt::hoist::hoist_program(p),
        "fuse" => parad_opt::fuse::fuse_program(p),
        "optimise" => parad_opt::optimise(p),
        "copies" => parad_opt::copies::remove_copies(p, parad_core::Stage::AfterAd),
        "acc_red" => parad_opt::acc_red::acc_red_program(p),
        "differentiate" => parad_ad::differentiate(p).map_err(|e| format!("AD: {e}"))?,
        _ => return Err(format!("unknown pass `{pass}`")),
    }
    Ok(())
}

fn execute(p: &Program, r: &Run) -> Result<Result<Vec<Value>, String>, String> {
    let args = read_values(r.args.as_bytes()).map_err(|e| format!("bad arguments: {e}"))?;
    Ok(parad_interp::run(p, &r.entry, args).map_err(|e| e.message))
}

/// Runs one file; returns the printed result (to bless) or a failure.
fn check_file(text: &str) -> Result<(String, Option<String>), String> {
    let t = split(text)?;
    let mut p = parse_program(&t.input).map_err(|e| format!("input: {e}"))?;
    check_program(&p).map_err(|e| format!("the input does not check: {e}"))?;
    let has_ad = parad_core::walk::count(&p, |s| s.exp.is_ad()) > 0;
    let before: Vec<_> = t
        .runs
        .iter()
        .map(|r| {
            if has_ad {
                Ok(None)
            } else {
                execute(&p, r).map(Some)
            }
        })
        .collect::<Result<_, _>>()?;
    for pass in &t.passes {
        run_pass(&mut p, pass)?;
    }
    let got = p.to_string();
    check_program(&p).map_err(|e| format!("the result does not check: {e}\n{got}"))?;
    for (r, before) in t.runs.iter().zip(before) {
        let after = execute(&p, r)?;
        let call = format!("{} {}", r.entry, r.args);
        if before.as_ref().is_some_and(|b| *b != after) {
            return Err(format!(
                "`{call}` gave {before:?} before the passes, {after:?} after"
            ));
        }
        match (&r.outcome, &after) {
            (None, _) => {}
            (Some(o), Err(msg)) if o.starts_with("error:") => {
                let want = o["error:".len()..].trim();
                if !msg.contains(want) {
                    return Err(format!("`{call}` failed with {msg:?}, not {want:?}"));
                }
            }
            (Some(o), _) => {
                let want = read_values(o.as_bytes())
                    .map_err(|e| format!("bad expected values in `{call}`: {e}"))?;
                if after != Ok(want) {
                    return Err(format!("`{call}` gave {after:?}, expected {o}"));
                }
            }
        }
    }
    Ok((got, t.expected))
}

/// Where `a` and `b` first differ, for the failure message.
fn first_difference(expected: &str, got: &str) -> String {
    let (e, g): (Vec<_>, Vec<_>) = (expected.lines().collect(), got.lines().collect());
    let k = (0..e.len().max(g.len()))
        .find(|&k| e.get(k) != g.get(k))
        .unwrap_or(0);
    let show = |l: Option<&&str>| l.map_or("(end)".to_string(), |l| l.to_string());
    format!(
        "line {} of the expectation:\n  expected: {}\n  got:      {}",
        k + 1,
        show(e.get(k)),
        show(g.get(k))
    )
}

/// The `.pir` files under `dir`, at any depth, sorted.
fn pir_files_in(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pir_files_in(&p, out)
        } else if p.extension().is_some_and(|e| e == "pir") {
            out.push(p)
        }
    }
}

fn pir_files() -> Vec<PathBuf> {
    let mut files = vec![];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    pir_files_in(&root, &mut files);
    files
}

#[test]
fn filetests() {
    let bless = std::env::var_os("PARAD_BLESS").is_some_and(|v| v == "1");
    let files = pir_files();
    assert!(!files.is_empty(), "no filetests found");
    let mut failures = vec![];
    for path in &files {
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .display();
        let text = std::fs::read_to_string(path).expect("read a filetest");
        match check_file(&text) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok((got, expected)) if expected.as_deref() == Some(got.as_str()) => {}
            Ok((got, _)) if bless => {
                let keep = match text.find(&format!("\n{EXPECT}")) {
                    Some(at) => &text[..at + 1],
                    None => text.as_str(),
                };
                let sep = if keep.ends_with('\n') { "" } else { "\n" };
                std::fs::write(path, format!("{keep}{sep}{EXPECT}\n{got}\n"))
                    .expect("write a filetest");
                eprintln!("blessed {name}");
            }
            Ok((got, None)) => {
                failures.push(format!("{name}: no `{EXPECT}` line; the output is\n{got}"))
            }
            Ok((got, Some(expected))) => failures.push(format!(
                "{name}: the output differs at {}\nthe whole output:\n{got}",
                first_difference(&expected, &got)
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\n(if the new output is right: PARAD_BLESS=1 cargo test -p parad-driver --test filetests)",
        failures.join("\n\n")
    );
}

/// The runner itself: a wrong expectation or a changed result fails.
#[test]
fn runner_reports_differences() {
    let program = "entry \"main\" = main : (i64) -> i64\n\nfun main(x_0: i64): i64 {\n  let t_1: i64 = add.i64(x_0, 0i64)\n  let t_2: i64 = add.i64(x_0, 0i64)\n  in t_2\n}";
    let text = format!("-- pass: dce\n-- run: main 3i64 => 3i64\n{program}\n{EXPECT}\n{program}\n");
    let (got, expected) = check_file(&text).unwrap();
    assert_ne!(Some(got.as_str()), expected.as_deref());
    assert!(!got.contains("t_1"), "{got}");
    let wrong = text.replace("=> 3i64", "=> 4i64");
    assert!(check_file(&wrong).unwrap_err().contains("expected 4i64"));
    let unknown = text.replace("-- pass: dce", "-- pass: frob");
    assert!(check_file(&unknown).unwrap_err().contains("unknown pass"));
}
