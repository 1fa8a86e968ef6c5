//! Formats every `.fut` file below the folders given as arguments and
//! checks each result: it must be a fixed point of the formatter (the
//! formatter itself checks that it parses to the same tree). Prints the
//! failures and the counts.
//!
//! `cargo run --release -p parad-fmt --example fmt_check -- DIR...`

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
}

fn main() {
    let mut files = vec![];
    for d in std::env::args().skip(1) {
        collect(Path::new(&d), &mut files);
    }
    files.sort();
    let (mut total, mut parsed, mut ok, mut changed) = (0, 0, 0, 0);
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        total += 1;
        let name = f.display().to_string();
        match parad_fmt::format(&src, &name) {
            Err(parad_fmt::FmtError::Parse(_)) => {}
            Err(e) => {
                parsed += 1;
                println!("FAIL {e}");
            }
            Ok(out) => {
                parsed += 1;
                if out != src {
                    changed += 1;
                }
                match parad_fmt::format(&out, &name) {
                    Ok(again) if again == out => ok += 1,
                    Ok(_) => println!("FAIL {name}: not idempotent"),
                    Err(e) => println!("FAIL {name}: second run: {e}"),
                }
            }
        }
    }
    println!("{total} files, {parsed} parse, {ok} format to a fixed point with the same tree, {changed} changed by formatting");
}
