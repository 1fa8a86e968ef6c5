//! `parad fmt [FILES] [--check]`: format programs (see the `parad_fmt`
//! crate for the style and the safety check).
//!
//! - With files: each is rewritten in place, atomically: the formatted text
//!   is written to a temporary file in the same folder, which then replaces
//!   the original by a rename, so an interrupted run leaves either the old
//!   or the new file, never a partial one. Files already formatted are not
//!   written at all.
//! - Without files: the program is read from standard input and the
//!   formatted program written to standard output.
//! - `--check`: nothing is written; the files that are not formatted are
//!   listed on standard output, one a line, and the exit status is 1.
//!
//! A file that cannot be read or does not parse is reported (a parse error
//! with its location, as `parad check` prints it) and left as it was; the
//! other files are still processed, and the exit status is 1. A formatter
//! bug caught by the formatter's own check is reported as an internal
//! error, and the file is left unchanged.

use crate::args::FmtArgs;
use crate::Failure;
use parad_fmt::FmtError;
use std::io::{Read, Write};
use std::path::Path;

pub fn fmt(args: &FmtArgs) -> Result<(), Failure> {
    if args.files.is_empty() {
        return stdin(args.check);
    }
    let mut failed = false;
    let mut unformatted = vec![];
    for path in &args.files {
        match one_file(path, args.check) {
            Ok(true) => {}
            Ok(false) => unformatted.push(path.display().to_string()),
            Err(msg) => {
                failed = true;
                eprint!("{msg}");
            }
        }
    }
    if !unformatted.is_empty() {
        crate::out::with_stdout(|out| {
            for f in &unformatted {
                writeln!(out, "{f}")?;
            }
            Ok(())
        })?;
        eprintln!(
            "error: {} file{} not formatted",
            unformatted.len(),
            if unformatted.len() == 1 {
                " is"
            } else {
                "s are"
            }
        );
    }
    if failed || !unformatted.is_empty() {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// The message for a formatting failure (ends with a line break).
fn error_text(e: &FmtError) -> String {
    match e {
        FmtError::Parse(rendered) => {
            let mut s = rendered.clone();
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s
        }
        FmtError::Internal(_) => format!("error: {e}; the file is left unchanged\n"),
    }
}

/// Formats standard input to standard output (or checks it).
fn stdin(check: bool) -> Result<(), Failure> {
    let mut bytes = vec![];
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::msg(format!("cannot read standard input: {e}")))?;
    let src =
        String::from_utf8(bytes).map_err(|_| Failure::msg("standard input is not valid UTF-8"))?;
    let out = parad_fmt::format(&src, "<stdin>").map_err(|e| Failure::Program(error_text(&e)))?;
    if check {
        if out != src {
            return Err(Failure::msg("<stdin> is not formatted"));
        }
        return Ok(());
    }
    crate::out::with_stdout(|w| w.write_all(out.as_bytes()))
}

/// Formats one file in place (or checks it): `Ok(false)` when `check` and
/// the file is not formatted; `Err` with the message to print.
fn one_file(path: &Path, check: bool) -> Result<bool, String> {
    let name = path.display().to_string();
    let src = parad_base::read_source(path).map_err(|e| format!("error: {name}: {e}\n"))?;
    let out = parad_fmt::format(&src, &name).map_err(|e| error_text(&e))?;
    if out == src {
        return Ok(true);
    }
    if check {
        return Ok(false);
    }
    write_atomically(path, &out).map_err(|e| format!("error: cannot write {name}: {e}\n"))?;
    Ok(true)
}

/// Replaces the file at `path` by `text`: written to a temporary file in
/// the same folder (keeping the original's permissions), then renamed over
/// the original.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".to_string());
    let perms = std::fs::metadata(path)?.permissions();
    let mut n = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(
            ".{file_name}.parad-fmt-{}-{n}.tmp",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::set_permissions(&tmp, perms))
        .and_then(|()| {
            drop(file);
            std::fs::rename(&tmp, path)
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
