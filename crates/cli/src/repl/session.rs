//! The declarations of a REPL session, and checking and running code
//! against them.
//!
//! The session is kept as source text: the loaded file (if any) and each
//! declaration typed since, in order. Every question (is this declaration
//! valid? what is this expression's type or value?) assembles one program
//! from those pieces plus a generated declaration, and sends it through
//! the driver exactly as `parad check` and `parad run --backend interp`
//! do: type checking, lowering, the core passes (so `jvp`/`vjp` are
//! expanded), the interpreter. Re-checking the session each time costs a
//! few milliseconds on a small session and keeps the REPL's semantics
//! those of a file: what works here works in a program, and the
//! reverse.
//!
//! The assembled program is one file, named after the loaded file (so
//! that imports are resolved from its folder as when it is checked on its
//! own) or `[repl]` in the working directory; how redefinitions are
//! allowed in it, and how its diagnostics are moved back into a file per
//! piece ([`Piece`]), is told in [`super::assemble`]. So a message about
//! a typed line names that line (`[repl:3]:1:5`, or `<stdin>:12:5` when
//! standard input is a script) and a message about the loaded file names
//! the file.
//!
//! An expression is evaluated as the body of a generated entry point,
//! the only one left in the program (the session's own entry points
//! become plain functions for that run, so that only what the expression
//! needs is lowered). Its name never reaches the user: errors that are
//! about the entry point rather than the expression (a function or a
//! polymorphic value cannot be an entry point's result) are detected
//! and explained in terms of the expression.

use super::assemble::{clashes, Analysed, Assembled};
use super::show;
use parad_base::{Diagnostic, SourceMap, Span};
use parad_driver::{Config, DriverError, Message, Source};
use parad_types::tast::{TProgram, Type};
use parad_values::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The name of the generated declaration holding a typed expression.
const GENERATED: &str = "parad_repl_expression";

/// Text the user gave: a loaded file or one input of the session.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The name shown in messages (`[repl:3]`, `<stdin>`, a file's path).
    pub name: String,
    pub text: String,
    /// The line of `name` on which `text` starts (1-based): an input read
    /// from a script is shown at its line in the script.
    pub first_line: usize,
}

impl Piece {
    pub fn new(name: impl Into<String>, text: impl Into<String>, first_line: usize) -> Piece {
        Piece {
            name: name.into(),
            text: text.into(),
            first_line: first_line.max(1),
        }
    }
}

/// A computed value with its type.
pub struct Evaluated {
    pub ty: Type,
    /// The leaves of the value (lowering's flattening of `ty`).
    pub leaves: Vec<Value>,
}

/// The declarations of the session: a loaded file, then the declarations
/// entered since, each checked when it was entered.
pub struct Session {
    /// The file loaded last (loaded again by `:load` alone).
    pub loaded: Option<PathBuf>,
    /// The loaded file (when loading it succeeded), then each declaration
    /// entered since, split into layers (see [`super::assemble`]).
    layers: Vec<Vec<Analysed>>,
    /// The name of the loaded file, when loading it succeeded.
    file_name: Option<String>,
    config: Config,
    /// Set by Ctrl-C to stop the expression being evaluated (see
    /// [`Session::interrupt_on_ctrl_c`]).
    interrupt: Arc<AtomicBool>,
}

impl Session {
    /// An empty session (the prelude only).
    pub fn new() -> Session {
        Session {
            loaded: None,
            layers: vec![],
            file_name: None,
            config: Config::default(),
            interrupt: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Makes Ctrl-C (SIGINT) stop the expression being evaluated, with
    /// the error "interrupted", instead of ending the process. At the
    /// prompt the line editor reads Ctrl-C itself. Fails if the process
    /// has a handler already.
    pub fn interrupt_on_ctrl_c(&self) -> Result<(), String> {
        let flag = self.interrupt.clone();
        ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
            .map_err(|e| format!("cannot handle Ctrl-C: {e}"))
    }

    /// Replaces the session by the declarations of the file at `path`
    /// (and forgets the declarations entered so far). On an error the
    /// session is left as it was, except that `path` is remembered for a
    /// later `:load` without a file.
    pub fn load(&mut self, path: &Path) -> Result<(), String> {
        let text = parad_base::read_source(path)
            .map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))?;
        let piece = Piece::new(path.display().to_string(), text, 1);
        let mut asm = Assembled::new(&piece.name);
        asm.piece(&piece, &[]);
        match Source::new(&asm.name, asm.text.clone()).check() {
            Ok(_) => {
                self.loaded = Some(path.to_path_buf());
                self.file_name = Some(piece.name.clone());
                self.layers = vec![vec![Analysed::new(piece)]];
                Ok(())
            }
            Err(e) => Err(render_error(&e, &asm)),
        }
    }

    /// Adds declarations, if the session with them type checks (else the
    /// session is unchanged).
    pub fn declare(&mut self, piece: Piece) -> Result<(), String> {
        let piece = Analysed::new(piece);
        let new_layer = match self.layers.last() {
            Some(layer) => clashes(layer, &piece),
            None => true,
        };
        let mut layers: Vec<Vec<&Analysed>> =
            self.layers.iter().map(|l| l.iter().collect()).collect();
        match layers.last_mut() {
            Some(last) if !new_layer => last.push(&piece),
            _ => layers.push(vec![&piece]),
        }
        let mut asm = Assembled::new(&self.name());
        asm.layers(&layers);
        match Source::new(&asm.name, asm.text.clone()).check() {
            Ok(_) => {
                match self.layers.last_mut() {
                    Some(last) if !new_layer => last.push(piece),
                    _ => self.layers.push(vec![piece]),
                }
                Ok(())
            }
            Err(e) => Err(render_error(&e, &asm)),
        }
    }

    /// The name of the assembled program: that of the loaded file, if any.
    fn name(&self) -> String {
        self.file_name
            .clone()
            .unwrap_or_else(|| "[repl]".to_string())
    }

    /// The type of an expression, as Futhark writes types (with its
    /// sizes where they are known).
    pub fn type_of(&self, exp: &Piece) -> Result<String, String> {
        let (asm, checked) = self.check_generated("def", exp);
        let checked = checked.map_err(|e| render_error(&e, &asm))?;
        let typed = &checked.checked.typed;
        let fun = generated_fun(typed).ok_or_else(lost)?;
        Ok(show::type_text(&fun.ret, typed))
    }

    /// Evaluates an expression.
    pub fn evaluate(&self, exp: &Piece) -> Result<Evaluated, String> {
        let (asm, checked) = self.check_generated("entry", exp);
        let mut checked = match checked {
            Ok(c) => c,
            Err(e) => return Err(self.explain(exp, &e, &asm)),
        };
        let ty = {
            let typed = &checked.checked.typed;
            let fun = generated_fun(typed).ok_or_else(lost)?;
            if !fun.params.is_empty() || show::has_function(&fun.ret) {
                return Err(not_printable(&fun.ret, typed));
            }
            fun.ret.clone()
        };
        // Only the generated entry point is lowered and run.
        let mut seen = false;
        for f in checked.checked.typed.funs.iter_mut().rev() {
            if f.entry {
                f.entry = f.name == GENERATED && !seen;
                seen |= f.entry;
            }
        }
        checked.checked.entries.retain(|e| e.name == GENERATED);
        checked.checked.entries.truncate(1);
        // A Ctrl-C pressed before this evaluation is not for it.
        self.interrupt.store(false, Ordering::Relaxed);
        let leaves =
            run(checked, &self.config, &self.interrupt).map_err(|e| render_error(&e, &asm))?;
        Ok(Evaluated { ty, leaves })
    }

    /// Says why the generated entry point for `exp` does not check: the
    /// expression's own error, or why its value cannot be shown.
    fn explain(&self, exp: &Piece, error: &DriverError, asm: &Assembled) -> String {
        let (asm_def, checked) = self.check_generated("def", exp);
        let checked = match checked {
            Ok(c) => c,
            Err(e) => return render_error(&e, &asm_def),
        };
        let typed = &checked.checked.typed;
        match generated_fun(typed) {
            Some(f) if !f.params.is_empty() || show::has_function(&f.ret) => {
                not_printable(&f.ret, typed)
            }
            Some(f) if !f.type_params.is_empty() => format!(
                "error: the type of the expression is ambiguous: {}\n",
                show::type_text(&f.ret, typed)
            ),
            _ => render_error(error, asm),
        }
    }

    /// Checks the session followed by `KEYWORD <generated> = exp`.
    fn check_generated(
        &self,
        keyword: &str,
        exp: &Piece,
    ) -> (Assembled, Result<parad_driver::Checked, DriverError>) {
        let mut asm = Assembled::new(&self.name());
        let layers: Vec<Vec<&Analysed>> = self.layers.iter().map(|l| l.iter().collect()).collect();
        asm.layers(&layers);
        asm.generated(&format!("{keyword} {GENERATED} =\n"));
        asm.piece(exp, &[]);
        let checked = Source::new(&asm.name, asm.text.clone()).check();
        (asm, checked)
    }
}

/// Lowers the checked program, runs the passes and interprets the
/// generated entry point.
fn run(
    checked: parad_driver::Checked,
    config: &Config,
    interrupt: &Arc<AtomicBool>,
) -> Result<Vec<Value>, DriverError> {
    let mut compiled = checked.lower(config)?;
    parad_driver::run_passes(&mut compiled, config)?;
    if let Some(why) = compiled.left_out_reason(GENERATED) {
        return Err(why);
    }
    parad_interp::Interp::new(&compiled.program)
        .with_interrupt(interrupt.clone())
        .run_entry(&compiled.program, GENERATED, vec![])
        .map_err(|e| compiled.runtime_error(e.to_diagnostic()))
}

/// The generated declaration in a checked program.
fn generated_fun(typed: &TProgram) -> Option<&parad_types::tast::TFun> {
    typed
        .funs
        .iter()
        .rev()
        .find(|f| !f.prelude && f.name == GENERATED)
}

/// The generated declaration went missing: a bug, reported as such.
fn lost() -> String {
    "error: internal error: the REPL lost the expression it checked\n".to_string()
}

fn not_printable(ty: &Type, typed: &TProgram) -> String {
    format!(
        "error: a function cannot be printed (the expression has type {})\n",
        show::type_text(ty, typed)
    )
}

/// Renders a driver error with its spans moved from the assembled program
/// into the pieces it was assembled from.
fn render_error(error: &DriverError, asm: &Assembled) -> String {
    let text = match error {
        DriverError::Program(m) | DriverError::Runtime(m) => render_message(m, asm),
        DriverError::Unsupported(m) => {
            let t = render_message(m, asm);
            if t.starts_with("error") {
                t
            } else {
                format!("error: {}\n", t.trim_end())
            }
        }
        e => e.render(),
    };
    let mut text = text.replace(GENERATED, "<expression>");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn render_message(m: &Message, asm: &Assembled) -> String {
    let Message::Diagnostics {
        diagnostics,
        sources,
    } = m
    else {
        return m.render();
    };
    let (sources, diagnostics) = asm.move_spans(sources, diagnostics);
    diagnostics
        .iter()
        .map(|d| parad_driver::render(d, &sources))
        .collect()
}

/// Renders a diagnostic about one piece on its own (a syntax error).
pub fn render_in_piece(d: &Diagnostic, piece: &Piece) -> String {
    let mut map = SourceMap::new();
    let pad = piece.first_line - 1;
    let file = map.add(piece.name.clone(), "\n".repeat(pad) + &piece.text);
    let mut d = d.clone();
    let shift = |s: Span| Span::new(file, s.start as usize + pad, s.end as usize + pad);
    d.span = d.span.map(shift);
    for l in &mut d.labels {
        l.span = shift(l.span);
    }
    parad_driver::render(&d, &map)
}
