//! Parses every `.fut` file under a directory and reports how many parse,
//! with the first error of each file that does not.
//!
//! Usage: `cargo run -p parad-syntax --example parse_all -- DIR`

use parad_base::SourceMap;
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
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: parse_all DIR");
        std::process::exit(2);
    };
    let mut files = vec![];
    collect(Path::new(&dir), &mut files);
    files.sort();
    let (mut ok, mut failed) = (0, 0);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let mut sm = SourceMap::new();
        let id = sm.add(f.display().to_string(), text.clone());
        match parad_syntax::parse(id, &text) {
            Ok(_) => ok += 1,
            Err(d) => {
                failed += 1;
                println!("{}", d.short(&sm));
            }
        }
    }
    println!("ok: {ok}, failed: {failed}");
}
