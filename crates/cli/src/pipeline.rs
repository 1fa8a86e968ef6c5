//! From a source file to something that runs: the compiler pipeline as
//! the command-line tool drives it.

use parad_base::{Diagnostic, SourceMap};
use parad_core::Program;
use parad_lower::ErrorKind;
use parad_testrun::{Backend, LoadError, Loaded, RunFailure};
use parad_types::Checked;
use parad_values::Value;
use std::path::Path;

/// A program that passed the front end.
pub struct Compiled {
    pub sources: SourceMap,
    pub checked: Checked,
}

/// Reads, parses and type checks `path`. The error is ready to print:
/// rendered diagnostics, each starting with `error:`.
pub fn load_program(path: &Path) -> Result<Compiled, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))?;
    let mut sources = SourceMap::new();
    let file = sources.add(path.display().to_string(), text);
    match parad_types::check_file(&mut sources, file) {
        Ok(checked) => Ok(Compiled { sources, checked }),
        Err(diags) => Err(diags.iter().map(|d| d.render(&sources)).collect()),
    }
}

/// A program lowered to core IR, with AD expanded: what every backend
/// runs.
pub struct Lowered {
    pub sources: SourceMap,
    pub program: Program,
    /// Entry points left out because AD cannot differentiate them yet,
    /// with the reason (the other entry points still run).
    pub unsupported: Vec<(String, String)>,
}

/// Whether to run the IR checker after every pass: always in debug
/// builds, and when `PARAD_CHECK_IR` is set (the test suite sets it).
fn check_ir() -> bool {
    cfg!(debug_assertions) || std::env::var_os("PARAD_CHECK_IR").is_some()
}

fn checked(stage: &str, p: &Program, sources: &SourceMap) -> Result<(), LoadError> {
    if !check_ir() {
        return Ok(());
    }
    parad_core::check_program(p).map_err(|e| {
        let at = e
            .span
            .map(|s| format!(" (at {})", Diagnostic::error(s, "").short(sources).trim()))
            .unwrap_or_default();
        LoadError::Compile(format!(
            "error: internal compiler error: the IR after {stage} is ill-formed: {e}{at}\n"
        ))
    })
}

/// Lowers a checked program to core IR (stage `core`), optionally followed
/// by automatic differentiation (stage `ad`), each optionally followed by
/// simplification (stage `opt`).
pub fn lower(
    compiled: Compiled,
    differentiate: bool,
    simplify: bool,
) -> Result<Lowered, LoadError> {
    let Compiled {
        sources,
        checked: ck,
        ..
    } = compiled;
    // An entry point needing an unsupported feature is left out; the
    // others still run.
    let (mut program, skipped) = parad_lower::lower_each(&ck).map_err(|e| {
        let text = e.diagnostic().render(&sources);
        match e.kind {
            ErrorKind::Unsupported => LoadError::Unsupported(text.trim_end().to_string()),
            ErrorKind::Program | ErrorKind::Bug => LoadError::Compile(text),
        }
    })?;
    let mut unsupported: Vec<(String, String)> = skipped
        .into_iter()
        .map(|(entry, e)| {
            (
                entry,
                e.diagnostic().render(&sources).trim_end().to_string(),
            )
        })
        .collect();
    if program.entries.is_empty() {
        if let Some((_, why)) = unsupported.first() {
            return Err(LoadError::Unsupported(why.clone()));
        }
    }
    checked("lowering", &program, &sources)?;
    if simplify {
        parad_opt::simplify(&mut program);
        checked("simplification", &program, &sources)?;
    }
    if differentiate {
        unsupported.extend(differentiate_each(&mut program, &sources));
        checked("automatic differentiation", &program, &sources)?;
        if simplify {
            parad_opt::optimise(&mut program);
            checked("optimisation after AD", &program, &sources)?;
        }
    }
    Ok(Lowered {
        sources,
        program,
        unsupported,
    })
}

/// Runs AD on each entry function separately, so that one entry point
/// AD cannot handle yet does not stop the others; returns the entry
/// points removed, with the reason.
fn differentiate_each(program: &mut Program, sources: &SourceMap) -> Vec<(String, String)> {
    let mut failed = vec![];
    let funs = std::mem::take(&mut program.funs);
    for f in funs {
        let mut single = Program {
            funs: vec![f],
            entries: vec![],
            names: program.names.clone(),
        };
        match parad_ad::differentiate(&mut single) {
            Ok(()) => {
                program.names = single.names;
                program.funs.extend(single.funs);
            }
            Err(e) => {
                let why = Diagnostic::error(e.span, e.message).render(sources);
                let name = single.funs[0].name;
                for entry in program.entries.iter().filter(|e| e.fun == name) {
                    failed.push((entry.name.clone(), why.trim_end().to_string()));
                }
                program.entries.retain(|e| e.fun != name);
            }
        }
    }
    failed
}

/// Turns a checked program into one whose entry points can be called by
/// the reference interpreter.
pub fn instantiate(compiled: Compiled) -> Result<Box<dyn Loaded>, LoadError> {
    let lowered = lower(compiled, true, true)?;
    Ok(Box::new(Interpreted(lowered)))
}

struct Interpreted(Lowered);

impl Loaded for Interpreted {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, RunFailure> {
        if let Some((_, why)) = self.0.unsupported.iter().find(|(e, _)| e == entry) {
            return Err(RunFailure::Unsupported(why.clone()));
        }
        parad_interp::run(&self.0.program, entry, args)
            .map_err(|e| RunFailure::Error(e.to_diagnostic().render(&self.0.sources)))
    }

    fn has_entry(&self, entry: &str) -> bool {
        self.0.program.entry(entry).is_some() || self.0.unsupported.iter().any(|(e, _)| e == entry)
    }
}

/// The reference interpreter as a test backend.
pub struct Interp;

impl Backend for Interp {
    fn name(&self) -> &str {
        "interp"
    }

    fn is_interpreter(&self) -> bool {
        true
    }

    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, LoadError> {
        instantiate(load_program(path).map_err(LoadError::Compile)?)
    }
}
