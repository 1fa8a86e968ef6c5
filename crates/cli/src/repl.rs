//! `parad repl`: an interactive session, as Futhark's `futhark repl`.
//!
//! Each input is a declaration (`def`, top-level `let`, `type`, `module`,
//! `open`, `import`, `local`, …), which is added to the session if the
//! session with it type checks, or an expression, which is evaluated by
//! the interpreter and printed in Futhark's value syntax (as `parad run`
//! prints results; tuples, records and sums as Futhark writes them). When
//! an input can be read both ways it is a declaration, as in Futhark.
//! Lines starting with `:` are commands (`:type`, `:load`, `:help`,
//! `:quit`; any unambiguous prefix of a name will do).
//!
//! Input that stops in the middle of a declaration or expression (an
//! unclosed bracket, a `let` without body, a trailing operator: the parser
//! fails at the end of the text) is continued on the next line; an empty
//! line ends it and shows the error.
//!
//! On a terminal, lines are read with `rustyline` (editing, and a history
//! kept in `parad/repl_history` under the user's data folder; failures to
//! read or write it are ignored), with the prompt `[N]> `. Otherwise
//! standard input is read line by line without prompts, so the REPL can be
//! scripted: values go to standard output, one per line, and errors to
//! standard error. Errors do not end the session and the exit status at
//! the end of input is 0, as Futhark's REPL.
//!
//! Ctrl-C while an expression is evaluated stops it ("interrupted") and
//! the session goes on; at the prompt it clears the line.
//!
//! Where code typed in the session is shown in an error, it is named
//! after its input (`[repl:3]:1:5` for the input at prompt `[3]> `), or
//! after its line in the script (`<stdin>:12:5`) when standard input is
//! not a terminal.
//!
//! How the session is checked and run: [`session`]. How values and types
//! are written: [`show`].

mod assemble;
mod input;
mod session;
mod show;

use crate::args::ReplArgs;
use crate::Failure;
use input::{classify, Kind};
use session::{Piece, Session};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// The commands: name, argument, what it does.
const COMMANDS: &[(&str, &str, &str)] = &[
    ("type", "EXPR", "Show the type of an expression."),
    (
        "load",
        "[FILE]",
        "Load a Futhark file, replacing the session's declarations\n                \
         (those typed so far too). Without FILE, load the last file again.",
    ),
    ("help", "", "Show this list."),
    ("quit", "", "Leave the REPL (as does end of input, Ctrl-D)."),
];

/// Runs the REPL until the end of input or `:quit`.
pub fn repl(args: &ReplArgs) -> Result<(), Failure> {
    let interactive = std::io::stdin().is_terminal();
    let mut lines: Box<dyn Lines> = if interactive {
        match Editor::new() {
            Some(e) => Box::new(e),
            None => Box::new(Piped::new()),
        }
    } else {
        Box::new(Piped::new())
    };
    let mut repl = Repl {
        session: Session::new(),
        interactive,
        count: 0,
    };
    // Without the handler, Ctrl-C during an evaluation ends the process
    // (the session goes on without it).
    if let Err(e) = repl.session.interrupt_on_ctrl_c() {
        eprintln!("warning: {e}");
    }
    if interactive {
        repl.say(
            "parad repl: Futhark with automatic differentiation. :help lists the commands.\n",
        )?;
    }
    if let Some(path) = &args.program {
        repl.load(path)?;
        // A file that failed to load is the one `:load` loads again.
        repl.session.loaded = Some(path.clone());
    }
    repl.run(lines.as_mut())
}

/// What reading a line gave.
enum Line {
    /// A line, without its line break; with its line number in the input.
    Text(String, usize),
    /// Ctrl-C: the input so far is dropped.
    Interrupted,
    /// End of input (Ctrl-D).
    End,
}

/// Where lines come from: the line editor on a terminal, else standard
/// input as it is.
trait Lines {
    fn read(&mut self, prompt: &str) -> Line;
    /// Remembers an input in the history (the editor's only).
    fn remember(&mut self, _input: &str) {}
}

/// Standard input read line by line, without prompts.
struct Piped {
    stdin: std::io::StdinLock<'static>,
    line: usize,
}

impl Piped {
    fn new() -> Piped {
        Piped {
            stdin: std::io::stdin().lock(),
            line: 0,
        }
    }
}

impl Lines for Piped {
    fn read(&mut self, _prompt: &str) -> Line {
        let mut bytes = vec![];
        match self.stdin.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => Line::End,
            Ok(_) => {
                self.line += 1;
                while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    bytes.pop();
                }
                // Invalid UTF-8 is kept visible (as U+FFFD), so that the
                // parser reports it where it is.
                Line::Text(String::from_utf8_lossy(&bytes).into_owned(), self.line)
            }
        }
    }
}

/// The line editor, with its history file.
struct Editor {
    editor: rustyline::DefaultEditor,
    history: Option<PathBuf>,
    line: usize,
}

impl Editor {
    fn new() -> Option<Editor> {
        let mut editor = rustyline::DefaultEditor::new().ok()?;
        let history = dirs::data_dir()
            .or_else(dirs::cache_dir)
            .map(|d| d.join("parad").join("repl_history"));
        if let Some(h) = &history {
            let _ = editor.load_history(h);
        }
        Some(Editor {
            editor,
            history,
            line: 0,
        })
    }
}

impl Lines for Editor {
    fn read(&mut self, prompt: &str) -> Line {
        use rustyline::error::ReadlineError;
        match self.editor.readline(prompt) {
            Ok(l) => {
                self.line += 1;
                Line::Text(l, self.line)
            }
            Err(ReadlineError::Interrupted) => Line::Interrupted,
            Err(_) => Line::End,
        }
    }

    fn remember(&mut self, input: &str) {
        if input.trim().is_empty() {
            return;
        }
        let _ = self.editor.add_history_entry(input);
        if let Some(h) = &self.history {
            if let Some(dir) = h.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = self.editor.save_history(h);
        }
    }
}

struct Repl {
    session: Session,
    interactive: bool,
    /// The number of the next input (shown in the prompt).
    count: usize,
}

/// Whether the session goes on after a command.
#[derive(Default)]
enum Next {
    #[default]
    Continue,
    Quit,
}

impl Repl {
    fn run(&mut self, lines: &mut dyn Lines) -> Result<(), Failure> {
        loop {
            let prompt = format!("[{}]> ", self.count);
            let (first, line_no) = match lines.read(&prompt) {
                Line::Text(t, n) => (t, n),
                Line::Interrupted => continue,
                Line::End => break,
            };
            if first.trim().is_empty() {
                continue;
            }
            if let Some(command) = first.trim_start().strip_prefix(':') {
                lines.remember(&first);
                let next = self.guarded(|r| r.command(command))?;
                self.count += 1;
                match next {
                    Next::Continue => continue,
                    Next::Quit => break,
                }
            }
            let mut text = first;
            let outcome = loop {
                let kind = classify(&text);
                match kind {
                    Kind::Incomplete(d) => {
                        let more = " ".repeat(prompt.len().saturating_sub(5)) + "...> ";
                        match lines.read(&more) {
                            Line::Text(l, _) if !l.trim().is_empty() => {
                                text.push('\n');
                                text.push_str(&l);
                            }
                            Line::Text(..) | Line::End => break Some(Kind::Error(d)),
                            Line::Interrupted => break None,
                        }
                    }
                    k => break Some(k),
                }
            };
            lines.remember(&text);
            if let Some(kind) = outcome {
                let piece = self.piece(text, line_no);
                self.guarded(|r| r.input(kind, piece))?;
            }
            self.count += 1;
        }
        if self.interactive {
            self.say("Leaving 'parad repl'.\n")?;
        }
        Ok(())
    }

    /// Runs `f`; a panic (a bug in parad) is reported as an internal
    /// error and the session goes on, as it is after any other error.
    fn guarded<T: Default>(
        &mut self,
        f: impl FnOnce(&mut Repl) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self)));
        match r {
            Ok(r) => r,
            Err(_) => {
                self.error(
                    "error: internal error in parad (see the message above); the session goes on\n",
                )?;
                Ok(T::default())
            }
        }
    }

    /// Names an input: by its number on a terminal, by its line in a
    /// script.
    fn piece(&self, text: String, line: usize) -> Piece {
        if self.interactive {
            Piece::new(format!("[repl:{}]", self.count), text, 1)
        } else {
            Piece::new("<stdin>", text, line)
        }
    }

    fn input(&mut self, kind: Kind, piece: Piece) -> Result<(), Failure> {
        match kind {
            Kind::Empty => Ok(()),
            Kind::Error(d) | Kind::Incomplete(d) => {
                self.error(&session::render_in_piece(&d, &piece))
            }
            Kind::Decl => match self.session.declare(piece) {
                Ok(()) => Ok(()),
                Err(e) => self.error(&e),
            },
            Kind::Exp => self.evaluate(&piece),
        }
    }

    fn evaluate(&mut self, piece: &Piece) -> Result<(), Failure> {
        match self.session.evaluate(piece) {
            Ok(v) => {
                let mut out = crate::out::stdout();
                show::write_value(&mut out, &v.ty, &v.leaves)
                    .and_then(|()| out.write_all(b"\n"))
                    .and_then(|()| out.flush())
                    .map_err(crate::out::write_failure)
            }
            Err(e) => self.error(&e),
        }
    }

    /// Runs a command (the text after `:`).
    fn command(&mut self, command: &str) -> Result<Next, Failure> {
        let command = command.trim();
        let (name, arg) = match command.find(char::is_whitespace) {
            Some(k) => (&command[..k], command[k..].trim()),
            None => (command, ""),
        };
        let matches: Vec<&str> = COMMANDS
            .iter()
            .map(|c| c.0)
            .filter(|c| !name.is_empty() && c.starts_with(name))
            .collect();
        let list = || {
            COMMANDS
                .iter()
                .map(|c| format!(":{}", c.0))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match matches.as_slice() {
            [] => {
                self.error(&format!(
                    "error: unknown command ':{name}'; the commands are {} (:help explains them)\n",
                    list()
                ))?;
            }
            ["type"] => {
                if arg.is_empty() {
                    self.error("error: usage: :type EXPR\n")?;
                } else {
                    let piece = self.piece(arg.to_string(), 1);
                    self.type_command(piece)?;
                }
            }
            ["load"] => {
                let path = if arg.is_empty() {
                    match &self.session.loaded {
                        Some(p) => p.clone(),
                        None => {
                            self.error("error: no file given, and none was loaded before\n")?;
                            return Ok(Next::Continue);
                        }
                    }
                } else {
                    PathBuf::from(arg)
                };
                self.load(&path)?;
            }
            ["help"] => self.help()?,
            ["quit"] => return Ok(Next::Quit),
            several => {
                let names: Vec<String> = several.iter().map(|c| format!(":{c}")).collect();
                self.error(&format!(
                    "error: ambiguous command ':{name}': it could be {}\n",
                    names.join(", ")
                ))?;
            }
        }
        Ok(Next::Continue)
    }

    fn type_command(&mut self, piece: Piece) -> Result<(), Failure> {
        match input::parse_exp(&piece.text) {
            Err(d) => self.error(&session::render_in_piece(&d, &piece)),
            Ok(()) => match self.session.type_of(&piece) {
                Ok(t) => self.say(&format!("{t}\n")),
                Err(e) => self.error(&e),
            },
        }
    }

    fn load(&mut self, path: &std::path::Path) -> Result<(), Failure> {
        match self.session.load(path) {
            Ok(()) if self.interactive => self.say(&format!("Loaded {}.\n", path.display())),
            Ok(()) => Ok(()),
            Err(e) => self.error(&e),
        }
    }

    fn help(&mut self) -> Result<(), Failure> {
        let mut text = String::from(
            "Enter a declaration (def, let, type, module, open, import, local, ...) to add \
             it to the session,\nor an expression to evaluate it (jvp and vjp included). \
             Unfinished input goes on on the\nnext line; an empty line ends it.\n\nCommands \
             (a prefix of the name will do):\n",
        );
        for (name, arg, what) in COMMANDS {
            let head = format!(":{name} {arg}");
            text.push_str(&format!("  {:<14}{what}\n", head.trim_end()));
        }
        self.say(&text)
    }

    /// Writes to standard output.
    fn say(&self, text: &str) -> Result<(), Failure> {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(crate::out::write_failure)
    }

    /// Reports an error on standard error; the session goes on.
    fn error(&self, text: &str) -> Result<(), Failure> {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = err.write_all(b"\n");
        }
        let _ = err.flush();
        Ok(())
    }
}
