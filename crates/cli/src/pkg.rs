//! `parad pkg`: Futhark's package manager. The work is done by the crate
//! `parad-pkg` (the manifest, versions, fetching with git, minimal version
//! selection, installing under `lib/`); this module runs its operations on
//! the current folder, writes their messages to stdout and turns their
//! errors into `error:` lines with exit status 1.
//!
//! `parad pkg check [DIR]` is offline: it checks that the packages
//! `DIR/futhark.pkg` requires are installed under `DIR/lib/`, where `sync`
//! puts them (`lib/github.com/owner/repo/`).

use crate::args::{PkgArgs, PkgCommand};
use crate::Failure;
use parad_pkg::{Fetcher, Required};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Runs a `parad pkg` subcommand.
pub fn pkg(args: &PkgArgs) -> Result<(), Failure> {
    let here = Path::new(".");
    let fetcher = |verbose: bool| {
        let log: Option<parad_pkg::Log> = if verbose {
            Some(Box::new(|line: &str| eprintln!("{line}")))
        } else {
            None
        };
        Fetcher::new(log).map_err(Failure::msg)
    };
    let mut out = crate::out::stdout();
    let result = match &args.command {
        PkgCommand::Check { dir } => return check(dir),
        PkgCommand::Init { pkgpath } => parad_pkg::init(here, pkgpath, &mut out),
        PkgCommand::Add {
            pkgpath,
            version,
            verbose,
        } => parad_pkg::add(
            here,
            &mut fetcher(*verbose)?,
            pkgpath,
            version.as_deref(),
            &mut out,
        ),
        PkgCommand::Remove { pkgpath } => parad_pkg::remove(here, pkgpath, &mut out),
        PkgCommand::Sync { verbose } => parad_pkg::sync(here, &mut fetcher(*verbose)?),
        PkgCommand::Upgrade { verbose } => {
            parad_pkg::upgrade(here, &mut fetcher(*verbose)?, &mut out)
        }
        PkgCommand::Fmt => parad_pkg::fmt(here),
        PkgCommand::Versions { pkgpath, verbose } => {
            parad_pkg::versions(&mut fetcher(*verbose)?, pkgpath, &mut out)
        }
    };
    // What was said before a failure is shown too.
    let flushed = out.flush();
    result.map_err(Failure::msg)?;
    flushed.map_err(crate::out::write_failure)
}

/// `parad pkg check [DIR]`.
fn check(dir: &Path) -> Result<(), Failure> {
    if !dir.is_dir() {
        return Err(Failure::msg(format!("{} is not a folder", dir.display())));
    }
    let file = dir.join(parad_pkg::MANIFEST);
    let manifest = parad_pkg::read_manifest(dir)
        .map_err(Failure::msg)?
        .ok_or_else(|| {
            Failure::msg(format!(
                "no futhark.pkg in {} (it lists the packages a project requires)",
                dir.display()
            ))
        })?;
    let required: Vec<&Required> = manifest.required().collect();
    if required.is_empty() {
        return crate::out::with_stdout(|out| {
            writeln!(out, "{}: no packages required", file.display())
        });
    }
    let mut missing = vec![];
    crate::out::with_stdout(|out| {
        for r in &required {
            let at = dir.join("lib").join(&r.path);
            if at.is_dir() {
                writeln!(
                    out,
                    "{} {}: installed in {}",
                    r.path,
                    r.version,
                    at.display()
                )?;
            } else {
                writeln!(
                    out,
                    "{} {}: missing (no {})",
                    r.path,
                    r.version,
                    at.display()
                )?;
                missing.push(r);
            }
        }
        Ok(())
    })?;
    if missing.is_empty() {
        return Ok(());
    }
    let mut msg = format!(
        "error: {} of the {} package(s) that {} requires {} not installed:\n",
        missing.len(),
        required.len(),
        file.display(),
        if missing.len() == 1 { "is" } else { "are" }
    );
    for r in &missing {
        let _ = writeln!(
            msg,
            "  {} {} (required on line {})",
            r.path, r.version, r.line
        );
    }
    let _ = writeln!(
        msg,
        "run `parad pkg sync` (or `futhark pkg sync`) in {} to install them under lib/",
        dir.display()
    );
    Err(Failure::Program(msg))
}
