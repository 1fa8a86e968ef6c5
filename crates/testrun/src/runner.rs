//! Running the cases of test blocks against an execution backend.
//!
//! Counting: a *case* is one (entry point, input) pair; a compile-time
//! `error:` expectation and each `property:` name are one case each. A
//! file without any test block is compiled only, and counts as one case
//! that passes when the program compiles. A file that cannot be read or
//! whose test block is malformed counts as one failure.
//!
//! Skipped (with the reason printed): files tagged `disable`, `notest`,
//! `no_<backend>` or an excluded tag; cases marked `compiled` when the
//! backend is an interpreter, `no_<backend>` or an excluded tag; script
//! inputs other than `$loaddata "file"`; property tests whose candidates
//! cannot be generated; anything the backend reports as unsupported.
//!
//! Property tests are run by [`crate::property`]: each name passes when
//! no counterexample is found, and fails with the smallest counterexample
//! on the heading's line (`FILE: property NAME (line L): counterexample
//! after K tests: VALUE`), the seed that reproduces it below.

use crate::data;
use crate::property::{self, Outcome};
use crate::script::{self, InputError};
use crate::spec::{parse_spec, Case, Expect, Item, SpecError, TestSpec};
use parad_driver::{Backend, DriverError, Loaded, Source};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which cases to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Skip files and cases carrying any of these tags.
    pub exclude: Vec<String>,
    /// Run only this entry point.
    pub entry: Option<String>,
    /// Run cases marked `compiled` even on an interpreter.
    pub include_compiled: bool,
    /// How far each program goes.
    pub mode: Mode,
    /// The random seed of property tests (`--seed`); without it each
    /// property draws one, printed with any counterexample.
    pub seed: Option<u64>,
    /// The extension of tuning files (Futhark's `--tuning`, `tuning` by
    /// default): `PROG.fut.EXT`, if there is one, gives values to the
    /// tuning parameters of `PROG.fut`. `None` (`--no-tuning`): none read.
    pub tuning: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            exclude: vec![],
            entry: None,
            include_compiled: false,
            mode: Mode::default(),
            seed: None,
            tuning: Some("tuning".into()),
        }
    }
}

/// The tuning file of the program at `path` (`PROG.fut.EXT`) read, if
/// there is one.
pub fn tuning_of(path: &Path, extension: Option<&str>) -> Result<parad_driver::Tuning, String> {
    let Some(ext) = extension else {
        return Ok(vec![]);
    };
    let mut file = path.as_os_str().to_owned();
    file.push(".");
    file.push(ext);
    let file = std::path::PathBuf::from(file);
    if !file.exists() {
        return Ok(vec![]);
    }
    parad_driver::read_tuning(&file)
}

/// How far `parad test` takes each program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Compile and run every case (the default).
    #[default]
    Run,
    /// Compile with the backend, run nothing (Futhark's `test -C`).
    Compile,
    /// Parse and type-check only (Futhark's `test -t`).
    TypeCheck,
}

impl Options {
    fn selects(&self, entry: &str) -> bool {
        self.entry.as_ref().is_none_or(|only| only == entry)
    }
}

/// Outcome counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    pub fn add(&mut self, other: Summary) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// Runs the tests of every file, one after the other, reporting failures
/// and skips to `out` (the caller prints the summary line).
pub fn run_files(
    backend: &dyn Backend,
    files: &[PathBuf],
    options: &Options,
    out: &mut dyn Write,
) -> Summary {
    let mut total = Summary::default();
    for f in files {
        total.add(run_file(backend, f, options, out));
    }
    total
}

/// What one file's run reported, handed to the caller of
/// [`run_files_concurrently`] as soon as the file is done.
pub struct FileReport<'a> {
    pub path: &'a Path,
    /// Failures and skips, as [`run_file`] writes them.
    pub output: Vec<u8>,
    pub summary: Summary,
}

/// Stack of each worker: the interpreter and the compiler's passes recurse
/// over trees whose depth the program controls (as on the command's own
/// thread); only touched pages are committed.
const WORKER_STACK: usize = 1 << 30;

/// Runs the tests of every file on `concurrency` threads (at least one),
/// calling `done` on the calling thread with each file's report in the
/// order the files finish. The total does not depend on the order.
pub fn run_files_concurrently(
    backend: &(dyn Backend + Sync),
    files: &[PathBuf],
    options: &Options,
    concurrency: usize,
    done: &mut dyn FnMut(FileReport),
) -> Summary {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel::<(usize, Vec<u8>, Summary)>();
    let mut total = Summary::default();
    std::thread::scope(|scope| {
        let workers = concurrency.clamp(1, files.len().max(1));
        let mut started = 0;
        for i in 0..workers {
            let send = send.clone();
            let next = &next;
            let worker = move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = files.get(k) else { break };
                let mut output = vec![];
                let summary = run_file(backend, path, options, &mut output);
                if send.send((k, output, summary)).is_err() {
                    break;
                }
            };
            let spawned = std::thread::Builder::new()
                .name(format!("test-{i}"))
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, worker);
            if spawned.is_ok() {
                started += 1;
            }
        }
        drop(send);
        if started == 0 {
            // No thread could start: run here.
            for path in files {
                let mut output = vec![];
                let summary = run_file(backend, path, options, &mut output);
                total.add(summary);
                done(FileReport {
                    path,
                    output,
                    summary,
                });
            }
            return;
        }
        for (k, output, summary) in receive {
            total.add(summary);
            done(FileReport {
                path: &files[k],
                output,
                summary,
            });
        }
    });
    total
}

/// Parses and type-checks the program at `path` (printed IR is read and
/// checked).
fn type_check(path: &Path) -> Result<(), DriverError> {
    let source = Source::read(path)?;
    if source.is_printed_ir() {
        let config = parad_driver::Config::new().with_check_ir(true);
        source.read_ir(&config).map(|_| ())
    } else {
        source.check().map(|_| ())
    }
}

/// Runs the tests of one file.
pub fn run_file(
    backend: &dyn Backend,
    path: &Path,
    options: &Options,
    out: &mut dyn Write,
) -> Summary {
    let mut r = FileRun {
        backend,
        path,
        options,
        out,
        summary: Summary::default(),
    };
    r.run();
    r.summary
}

struct FileRun<'a> {
    backend: &'a dyn Backend,
    path: &'a Path,
    options: &'a Options,
    out: &'a mut dyn Write,
    summary: Summary,
}

/// Where a case is: entry, position among the file's inputs, line.
struct CaseAt<'a> {
    entry: &'a str,
    index: usize,
    case: &'a Case,
}

impl fmt::Display for CaseAt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}, input #{}", self.entry, self.index)?;
        if let Some(n) = &self.case.name {
            write!(f, " \"{n}\"")?;
        }
        write!(f, " (line {})", self.case.line)
    }
}

/// Indents every line of a multi-line message under its heading.
fn indent(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| format!("  {l}\n"))
        .collect()
}

impl FileRun<'_> {
    // Writing the report is best effort: a closed stdout must not stop
    // the counting, so write errors are ignored.
    fn fail(&mut self, heading: impl fmt::Display, detail: &str) {
        self.summary.failed += 1;
        let _ = write!(
            self.out,
            "{}: {heading}:\n{}",
            self.path.display(),
            indent(detail)
        );
    }

    /// A failure whose message starts on the heading's line.
    fn fail_inline(&mut self, heading: impl fmt::Display, message: &str) {
        self.summary.failed += 1;
        let (first, rest) = message.split_once('\n').unwrap_or((message, ""));
        let _ = write!(
            self.out,
            "{}: {heading}: {first}\n{}",
            self.path.display(),
            indent(rest)
        );
    }

    fn pass(&mut self) {
        self.summary.passed += 1;
    }

    fn skip(&mut self, n: usize, heading: impl fmt::Display, reason: &str) {
        self.summary.skipped += n;
        let _ = writeln!(
            self.out,
            "{}: {heading}: skipped: {reason}",
            self.path.display()
        );
    }

    fn run(&mut self) {
        let source = match std::fs::read_to_string(self.path) {
            Ok(s) => s,
            Err(e) => return self.fail("error", &format!("cannot read the file: {e}")),
        };
        let spec = match parse_spec(self.path, &source) {
            Ok(s) => s,
            Err(SpecError { line, message }) => {
                self.summary.failed += 1;
                let _ = writeln!(
                    self.out,
                    "{}:{line}: error: malformed test block: {message}",
                    self.path.display()
                );
                return;
            }
        };
        let cases = self.count_cases(&spec).max(1);
        if let Some(tag) = self.excluded_tag(spec.tags()) {
            return self.skip(
                cases,
                format_args!("{cases} case(s)"),
                &format!("tagged `{tag}`"),
            );
        }
        let tuning = match tuning_of(self.path, self.options.tuning.as_deref()) {
            Ok(t) => t,
            Err(e) => return self.fail("error", &e),
        };
        match self.options.mode {
            Mode::Run => {}
            Mode::Compile => {
                let result = self.backend.load_tuned(self.path, &tuning).map(|_| ());
                return self.checked_only(&spec, result, "compilation");
            }
            Mode::TypeCheck => {
                let result = type_check(self.path);
                return self.checked_only(&spec, result, "type checking");
            }
        }
        let program = match self.backend.load_tuned(self.path, &tuning) {
            Ok(p) => Ok(p),
            Err(e) if e.is_unsupported() => {
                return self.skip(cases, format_args!("{cases} case(s)"), &e.render());
            }
            Err(e) => Err(e.render()),
        };
        if spec.blocks.is_empty() {
            // Compiled only.
            return match program {
                Ok(_) => self.pass(),
                Err(msg) => self.fail("compilation failed", &msg),
            };
        }
        match program {
            Ok(mut p) => self.run_cases(&spec, p.as_mut()),
            Err(msg) => self.compile_failed(&spec, &msg),
        }
    }

    /// `-C` and `-t`: the file is one case, which passes when the stage
    /// succeeds, or fails with a message that a compile-error expectation
    /// of the test block matches.
    fn checked_only(&mut self, spec: &TestSpec, result: Result<(), DriverError>, stage: &str) {
        let msg = match result {
            Ok(()) => return self.pass(),
            Err(e) if e.is_unsupported() => return self.skip(1, "program", &e.render()),
            Err(e) => e.render(),
        };
        let expected = spec
            .blocks
            .iter()
            .flat_map(|b| &b.items)
            .any(|i| matches!(i, Item::CompileError { regex, .. } if regex.is_match(&msg)));
        if expected {
            self.pass()
        } else {
            self.fail(format_args!("{stage} failed"), &msg)
        }
    }

    /// The number of cases `run_cases` would count.
    fn count_cases(&self, spec: &TestSpec) -> usize {
        let mut n = 0;
        for item in spec.blocks.iter().flat_map(|b| &b.items) {
            n += match item {
                Item::Cases { entries, cases } => {
                    entries.iter().filter(|e| self.options.selects(e)).count() * cases.len()
                }
                Item::CompileError { .. } => 1,
                Item::Property { names, .. } => names.len(),
            };
        }
        n
    }

    /// The first tag that excludes a file or case, if any.
    fn excluded_tag<'t>(&self, tags: impl IntoIterator<Item = &'t str>) -> Option<&'t str> {
        let own = format!("no_{}", self.backend.name());
        tags.into_iter().find(|t| {
            matches!(*t, "disable" | "notest")
                || *t == own
                || self.options.exclude.iter().any(|x| x == t)
        })
    }

    /// The program did not compile: compile-error expectations are checked
    /// against the message, everything else fails (the message is shown once).
    fn compile_failed(&mut self, spec: &TestSpec, msg: &str) {
        let mut shown = false;
        for item in spec.blocks.iter().flat_map(|b| &b.items) {
            if let Item::CompileError { regex, line } = item {
                if regex.is_match(msg) {
                    self.pass();
                } else {
                    let detail = format!(
                        "expected a compile error matching `{regex}`, but got:\n{}",
                        msg.trim_end()
                    );
                    self.fail(format_args!("compile error (line {line})"), &detail);
                    shown = true;
                }
            }
        }
        let others = self.count_cases(spec)
            - spec
                .blocks
                .iter()
                .flat_map(|b| &b.items)
                .filter(|i| matches!(i, Item::CompileError { .. }))
                .count();
        if others > 0 {
            self.summary.failed += others;
            let detail = if shown {
                "(see above)".to_string()
            } else {
                msg.to_string()
            };
            let _ = write!(
                self.out,
                "{}: compilation failed ({others} case(s) not run):\n{}",
                self.path.display(),
                indent(&detail)
            );
        }
    }

    fn run_cases(&mut self, spec: &TestSpec, program: &mut dyn Loaded) {
        let mut index = 0;
        // The program's entry points as typed, read at the first property.
        let mut prepared: Option<Result<property::Prepared, Outcome>> = None;
        for item in spec.blocks.iter().flat_map(|b| &b.items) {
            match item {
                Item::CompileError { regex, line } => self.fail(
                    format_args!("compile error (line {line})"),
                    &format!(
                        "expected a compile error matching `{regex}`, but the program compiled"
                    ),
                ),
                Item::Property { names, line } => {
                    let prepared = prepared.get_or_insert_with(|| property::prepare(self.path));
                    for name in names {
                        let outcome = match prepared {
                            Ok(p) => {
                                let seed = self.options.seed.unwrap_or_else(rand::random);
                                property::check(program, p, name, seed)
                            }
                            Err(o) => o.clone(),
                        };
                        let heading = format_args!("property {name} (line {line})");
                        match outcome {
                            Outcome::Holds => self.pass(),
                            Outcome::Fails(msg) => self.fail_inline(heading, &msg),
                            Outcome::Skip(why) => self.skip(1, heading, &why),
                        }
                    }
                }
                Item::Cases { entries, cases } => {
                    let options = self.options;
                    let entries: Vec<&String> =
                        entries.iter().filter(|e| options.selects(e)).collect();
                    for case in cases {
                        index += 1;
                        for entry in &entries {
                            let at = CaseAt { entry, index, case };
                            self.run_case(program, &at);
                        }
                    }
                }
            }
        }
    }

    fn run_case(&mut self, program: &mut dyn Loaded, at: &CaseAt) {
        let case = at.case;
        if let Some(tag) = self.excluded_tag(case.modifiers.iter().map(String::as_str)) {
            return self.skip(1, at, &format!("tagged `{tag}`"));
        }
        if self.backend.is_interpreter()
            && !self.options.include_compiled
            && case.modifiers.iter().any(|m| m == "compiled")
        {
            return self.skip(1, at, "marked `compiled` (not run by an interpreter)");
        }
        if !program.has_entry(at.entry) {
            return self.fail(
                at,
                &format!("the program has no entry point `{}`", at.entry),
            );
        }
        let params = program.param_types(at.entry).unwrap_or_default();
        let args = match script::case_args(self.path, case, program, &params) {
            Ok(a) => a,
            Err(InputError::Unsupported(why)) => {
                return self.skip(1, at, &format!("not supported: {why}"))
            }
            Err(InputError::Bad(e)) => return self.fail(at, &format!("bad input: {e}")),
        };
        let result = program.call(at.entry, args);
        match (&case.expect, result) {
            (_, Err(e)) if e.is_unsupported() => self.skip(1, at, &e.render()),
            (Expect::RunError(re), Err(e)) => {
                let msg = e.render();
                // Futhark's programs report a run-time error as `Error:
                // message`, and expectations may match that prefix.
                let futhark = format!("Error: {}", msg.strip_prefix("error: ").unwrap_or(&msg));
                if re.is_match(&msg) || re.is_match(&futhark) {
                    self.pass()
                } else {
                    self.fail(
                        at,
                        &format!("expected an error matching `{re}`, but got:\n{msg}"),
                    )
                }
            }
            (Expect::RunError(re), Ok(_)) => self.fail(
                at,
                &format!("expected an error matching `{re}`, but the run succeeded"),
            ),
            (_, Err(e)) => self.fail(at, &format!("run-time error:\n{}", e.render())),
            (Expect::Success | Expect::AutoOutput, Ok(_)) => self.pass(),
            (Expect::Output(expected), Ok(actual)) => match data::read(expected) {
                Err(e) => self.fail(at, &format!("bad expected output: {e}")),
                Ok(expected) => match data::check_results(&expected, &actual) {
                    Ok(()) => self.pass(),
                    Err(diff) => self.fail(at, &diff),
                },
            },
        }
    }
}

/// The programs among `paths`: files as given, directories searched
/// recursively for `.fut` and `.pir` (printed core IR) files; sorted for a
/// stable report.
pub fn find_fut_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = vec![];
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "fut" || e == "pir") {
            out.push(p);
        }
    }
    Ok(())
}
