fn main() {
    let a: Vec<String> = std::env::args().collect();
    let out = parad_doc::generate(std::path::Path::new(&a[1]), &mut |l| eprintln!("{l}"));
    match out {
        Ok(o) => {
            for w in &o.warnings { eprintln!("{w}"); }
            for (k, v) in &o.files { if k != "style.css" { println!("=== {k}\n{v}"); } }
        }
        Err(e) => { eprintln!("{e}"); std::process::exit(1) }
    }
}
