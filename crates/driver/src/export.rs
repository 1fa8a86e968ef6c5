//! Programs that leave parad: what `parad c` and `parad multicore` write.
//!
//! A library is `NAME.c` (one self-contained C99 file: the program, the
//! runtime and Futhark's C API), `NAME.h` and the manifest `NAME.json`.
//! An executable or a server is that C file with a `main` added, compiled
//! by the C compiler into `NAME` (the C file is kept beside it, as
//! Futhark does).

use crate::config::Config;
use crate::error::{DriverError, Message};
use parad_cgen::api::{self, Flavour};
use parad_cgen::build::BuildOptions;
use std::path::{Path, PathBuf};

pub use parad_cgen::api::Output;

/// What was written, and what the program lacks.
#[derive(Debug)]
pub struct Exported {
    pub files: Vec<PathBuf>,
    /// Entry points a stage could not compile, with the reason (rendered).
    pub left_out: Vec<(String, String)>,
}

/// Compiles the program at `path` into `output` (the name without
/// extension) as `kind`, presenting Futhark's `flavour` of C API.
pub fn export_file(
    path: &Path,
    config: &Config,
    flavour: Flavour,
    kind: Output,
    output: &Path,
) -> Result<Exported, DriverError> {
    let compiled = crate::compile_file(path, config)?;
    let program = parad_cgen::emit::emit(&compiled.program).map_err(|e| {
        DriverError::Unsupported(Message::Text(format!(
            "the C backend cannot compile this program: {e}"
        )))
    })?;
    let spans = crate::c::span_locations(&compiled, &program);
    let stem = output
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "prog".into());
    let guard: String = format!("PARAD_{stem}_H")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let api = api::generate(&program, &compiled.api, &spans, flavour, &guard).map_err(|e| {
        DriverError::Program(Message::Text(format!(
            "error: internal compiler error: {e}\n"
        )))
    })?;
    let left_out = compiled
        .left_out
        .iter()
        .map(|l| {
            (
                l.entry.clone(),
                Message::diagnostic(l.reason.clone(), &compiled.sources).render(),
            )
        })
        .collect();
    let source = api::source(&program, &api, flavour, kind, &format!("{stem}.h"));
    let with_ext = |ext: &str| {
        let mut p = output.as_os_str().to_owned();
        p.push(ext);
        PathBuf::from(p)
    };
    let write = |p: &Path, text: &str| {
        std::fs::write(p, text).map_err(|e| {
            DriverError::Program(Message::Text(format!(
                "error: cannot write {}: {e}\n",
                p.display()
            )))
        })
    };
    let c_file = with_ext(".c");
    write(&c_file, &source)?;
    let mut files = vec![c_file.clone()];
    match kind {
        Output::Library => {
            let h = with_ext(".h");
            let j = with_ext(".json");
            write(&h, &api.header)?;
            write(&j, &api.manifest)?;
            files.extend([h, j]);
        }
        Output::Executable | Output::Server => {
            compile_executable(&c_file, output)?;
            files.push(output.to_path_buf());
        }
    }
    Ok(Exported { files, left_out })
}

/// Compiles the C file of an executable with the C compiler (`CC`, and
/// `PARAD_CFLAGS` appended) as a user would: standard C, `-lm -lpthread`
/// (the runtime's own thread pool runs parallel loops).
fn compile_executable(c_file: &Path, exe: &Path) -> Result<(), DriverError> {
    let options = BuildOptions::from_env();
    let mut cmd = std::process::Command::new(&options.cc[0]);
    cmd.args(&options.cc[1..])
        .args(["-std=c99", "-O3"])
        .arg(c_file)
        .arg("-o")
        .arg(exe)
        .args(["-lm", "-lpthread"])
        .args(&options.extra_flags);
    let out = cmd.output().map_err(|e| {
        DriverError::Program(Message::Text(format!(
            "error: cannot run the C compiler {}: {e}\n",
            options.cc_name()
        )))
    })?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = msg.lines().take(30).collect();
        return Err(DriverError::Program(Message::Text(format!(
            "error: internal compiler error: the C compiler failed on {}:\n{}\n",
            c_file.display(),
            first.join("\n")
        ))));
    }
    Ok(())
}
