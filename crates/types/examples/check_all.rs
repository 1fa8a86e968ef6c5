//! Parses and type checks every `.fut` file under a directory and prints
//! counts: parse failures, unsupported features (modules, sum types),
//! type errors, and successes. Files whose test block expects an error
//! (`-- error:`) are counted separately.
//!
//! Usage: `cargo run -p parad-types --example check_all DIR [-v]`

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
}

fn expects_error(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_start().starts_with("-- error:"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: check_all DIR [-v]");
        std::process::exit(2);
    };
    let verbose = args.iter().any(|a| a == "-v");
    let mut files = vec![];
    collect(Path::new(dir), &mut files);
    files.sort();
    let (mut parse_fail, mut unsupported, mut type_err, mut ok) = (0, 0, 0, 0);
    let (mut exp_total, mut exp_got_error) = (0, 0);
    let mut messages: std::collections::BTreeMap<String, usize> = Default::default();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let name = f.display().to_string();
        let (sources, r) = parad_types::check_source(&name, &text);
        if expects_error(&text) {
            exp_total += 1;
            if r.is_err() {
                exp_got_error += 1;
            }
            continue;
        }
        match r {
            Ok(_) => ok += 1,
            Err(ds) => {
                let d = &ds[0];
                let parse = parad_syntax::parse(parad_base::FileId(0), &text).is_err();
                if parse {
                    parse_fail += 1;
                } else if d.message.contains("not supported yet")
                    || d.notes.iter().any(|n| n.contains("not supported yet"))
                {
                    unsupported += 1;
                } else {
                    type_err += 1;
                    let key: String = d.message.chars().take(50).collect();
                    *messages.entry(key).or_default() += 1;
                    if verbose {
                        println!("{}", d.short(&sources));
                    }
                }
            }
        }
    }
    println!("files:              {}", files.len());
    println!("parse failures:     {parse_fail}");
    println!("not supported:      {unsupported}");
    println!("type errors:        {type_err}");
    println!("ok:                 {ok}");
    println!("expected errors:    {exp_total} (of which {exp_got_error} got an error)");
    if verbose {
        let mut v: Vec<_> = messages.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1));
        for (m, n) in v.iter().take(40) {
            println!("{n:5}  {m}");
        }
    }
}
