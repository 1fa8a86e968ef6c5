//! Formats standard input to standard output (a development aid).
use std::io::Read;

fn main() {
    let mut src = String::new();
    if std::io::stdin().read_to_string(&mut src).is_err() {
        std::process::exit(2);
    }
    match parad_fmt::format(&src, "<stdin>") {
        Ok(out) => print!("{out}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
