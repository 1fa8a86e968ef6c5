//! The printed core IR can be read back (DESIGN §1): for every program
//! under `tests/` and every stage `parad dump` shows, print → read →
//! print gives the same text, and the program read passes the IR checker. Programs that do not compile are skipped and listed.

use parad_core::{check_program_at, parse_program, Stage};
use std::path::{Path, PathBuf};
use std::process::Command;

mod corpus;
use corpus::{fut_files, root};

enum Outcome {
    Checked,
    Skipped,
    Failed(String),
}

/// Dumps `file` at `stage` and reads the text back.
fn round_trip(file: &Path, stage: &str) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["dump", &format!("--stage={stage}")])
        .arg(file)
        .output()
        .expect("run parad");
    if !out.status.success() {
        return Outcome::Skipped;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let prog = match parse_program(&text) {
        Ok(p) => p,
        Err(e) => {
            let line = text.lines().nth(e.line as usize - 1).unwrap_or("");
            return Outcome::Failed(format!("cannot read it back: {e}\n  {line}"));
        }
    };
    // As the pipeline checks every stage: no AD operator is left after AD.
    let at = if stage == "core" {
        Stage::BeforeAd
    } else {
        Stage::AfterAd
    };
    if let Err(e) = check_program_at(&prog, at) {
        return Outcome::Failed(format!("the program read does not check: {e}"));
    }
    let again = prog.to_string();
    if again != text {
        let (k, (a, b)) = text
            .lines()
            .zip(again.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, ("(lengths differ)", "")));
        return Outcome::Failed(format!(
            "printed differently at line {}:\n  was: {a}\n  now: {b}",
            k + 1
        ));
    }
    Outcome::Checked
}

#[test]
fn every_test_program_reads_back_at_every_stage() {
    let mut files = vec![];
    fut_files(&root().join("tests"), &mut files);
    let jobs: Vec<(&PathBuf, &str)> = files
        .iter()
        .flat_map(|f| ["core", "ad", "opt"].map(|s| (f, s)))
        .collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    let results: Vec<(String, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let jobs = &jobs;
                s.spawn(move || {
                    jobs.iter()
                        .skip(w)
                        .step_by(workers)
                        .map(|(f, stage)| {
                            let name = f.strip_prefix(root()).unwrap_or(f).display();
                            (format!("{name} ({stage})"), round_trip(f, stage))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let mut checked = 0;
    let mut skipped = vec![];
    let mut failed = vec![];
    for (name, o) in results {
        match o {
            Outcome::Checked => checked += 1,
            Outcome::Skipped => skipped.push(name),
            Outcome::Failed(why) => failed.push(format!("{name}: {why}")),
        }
    }
    skipped.sort();
    eprintln!(
        "{checked} dumps read back; {} skipped (do not compile):",
        skipped.len()
    );
    for s in &skipped {
        eprintln!("  {s}");
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // About 117 programs × 3 stages compile today.
    assert!(
        checked >= 300,
        "only {checked} dumps were checked: is tests/ missing?"
    );
}
