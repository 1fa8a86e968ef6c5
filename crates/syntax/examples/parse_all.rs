//! Parses every `.fut` file under a directory and reports how many parse,
//! with the first error of each file that does not.
//!
//! Usage: `cargo run -p parad-syntax --example parse_all -- [--print] PATH`
//! where PATH is a directory or a single file; `--print` also prints each
//! parsed program as S-expressions.

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

/// Every expression id is distinct and below the returned next id.
fn check_ids(p: &mut parad_syntax::ast::Program, next: u32, f: &Path) {
    let mut seen = std::collections::HashSet::new();
    parad_syntax::visit::walk_program_mut(p, &mut |e| {
        if e.id.0 >= next || !seen.insert(e.id) {
            println!("{}: bad expression id {}", f.display(), e.id.0);
        }
    });
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let print = args.first().is_some_and(|a| a == "--print");
    if print {
        args.remove(0);
    }
    let Some(path) = args.first() else {
        eprintln!("usage: parse_all [--print] PATH");
        std::process::exit(2);
    };
    let mut files = vec![];
    if Path::new(path).is_file() {
        files.push(PathBuf::from(path));
    } else {
        collect(Path::new(path), &mut files);
    }
    files.sort();
    let (mut ok, mut failed) = (0, 0);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let mut sm = SourceMap::new();
        let id = sm.add(f.display().to_string(), text.clone());
        match parad_syntax::parse_with_ids(id, &text, 0) {
            Ok((mut p, next)) => {
                ok += 1;
                check_ids(&mut p, next, f);
                if print {
                    println!("{}", parad_syntax::sexp::program(&p));
                }
            }
            Err(d) => {
                failed += 1;
                println!("{}", d.short(&sm));
            }
        }
    }
    println!("ok: {ok}, failed: {failed}");
}
