//! `parad literate PROG.fut`: writes `PROG.md`, the program as a Markdown
//! document with the output of its directives, and the images, plots,
//! animations and sounds in `PROG-img/` beside it (see `parad_literate`).
//!
//! The program is compiled first: one that does not type-check is
//! reported with its location and nothing is written. A failing directive
//! is reported at its line and shown in the document, and the exit
//! status is 1 once the document is written (or at once, writing
//! nothing, with `--stop-on-error`).

use crate::args::LiterateArgs;
use crate::Failure;
use parad_driver::Config;
use std::path::{Path, PathBuf};

pub fn literate(args: &LiterateArgs) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&args.program)
        .map_err(|e| Failure::msg(format!("{}: {e}", args.program.display())))?;
    let blocks = parad_literate::doc::split(&text);

    let backend = args.backend.backend(Config::default(), None, vec![]);
    if args.verbose {
        eprintln!("Compiling {}...", args.program.display());
    }
    let mut program = backend.load(&args.program).map_err(|e| {
        let msg = e.render();
        if msg.starts_with("error") {
            Failure::Program(if msg.ends_with('\n') { msg } else { msg + "\n" })
        } else {
            Failure::msg(msg.trim_end())
        }
    })?;

    let md = args
        .output
        .clone()
        .unwrap_or_else(|| args.program.with_extension("md"));
    let stem = md
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let img_link = format!("{stem}-img");
    let img_dir = md.parent().unwrap_or(Path::new("")).join(&img_link);
    let dir: PathBuf = args
        .program
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let env = parad_literate::Env {
        program: &args.program,
        dir: &dir,
        img_dir: img_dir.clone(),
        img_link,
        stop_on_error: args.stop_on_error,
        verbose: args.verbose,
    };
    let needs_plot = blocks.iter().any(|b| {
        matches!(b, parad_literate::doc::Block::Directive(d)
            if matches!(&d.parsed, Ok(p) if matches!(p.action, parad_literate::doc::Action::Plot { .. })))
    });
    if needs_plot {
        if let Some(w) = parad_literate::plot::font_warning() {
            eprintln!("{w}");
        }
    }
    let mut log = |m: &str| eprintln!("{m}");
    let outcome = parad_literate::render(&blocks, &mut *program, &env, &mut log)
        .map_err(|_| Failure::Reported)?;
    std::fs::write(&md, &outcome.markdown)
        .map_err(|e| Failure::msg(format!("cannot write {}: {e}", md.display())))?;
    parad_literate::clean_img_dir(&img_dir, &outcome.files)
        .map_err(|e| Failure::msg(format!("{}: {e}", img_dir.display())))?;
    if args.verbose {
        eprintln!("Wrote {}", md.display());
    }
    match outcome.failures {
        0 => Ok(()),
        _ => Err(Failure::Reported),
    }
}
