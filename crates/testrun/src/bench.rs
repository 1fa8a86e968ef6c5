//! `parad bench`: times the entry points of programs on the datasets of
//! their test blocks.
//!
//! Per dataset: one warm-up run whose results are checked against the
//! expected output (if any), then `runs` timed runs. Skipped: files and
//! cases tagged `disable`, `nobench`, `no_<backend>` or an excluded tag,
//! `compiled` cases on an interpreter, and cases expecting an error.
//! Files without datasets are not compiled.

use crate::data;
use crate::script::{self, InputError};
use crate::spec::{parse_spec, Case, Expect, Input, Item, TestSpec, Values};
use parad_driver::{Backend, DriverError, Loaded};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Timed runs per dataset (after one warm-up run).
    pub runs: usize,
    /// Skip datasets and files carrying any of these tags.
    pub exclude: Vec<String>,
    /// Run only this entry point.
    pub entry: Option<String>,
    /// The extension of tuning files, as [`crate::Options::tuning`].
    pub tuning: Option<String>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            runs: 10,
            exclude: vec![],
            entry: None,
            tuning: Some("tuning".into()),
        }
    }
}

/// The measurements of one (program, entry point, dataset).
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    pub program: PathBuf,
    pub entry: String,
    pub dataset: String,
    /// Wall-clock time of each timed run.
    pub runtimes: Vec<Duration>,
    /// The most bytes of array memory held at once during a timed run,
    /// where the backend counts it ([`Loaded::peak_memory`]).
    pub peak_memory: Option<u64>,
}

impl BenchResult {
    pub fn min(&self) -> Duration {
        self.runtimes.iter().copied().min().unwrap_or_default()
    }

    pub fn median(&self) -> Duration {
        let mut t = self.runtimes.clone();
        t.sort();
        match t.len() {
            0 => Duration::ZERO,
            n if n % 2 == 1 => t[n / 2],
            n => (t[n / 2 - 1] + t[n / 2]) / 2,
        }
    }
}

/// What benchmarking some files produced.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    pub results: Vec<BenchResult>,
    /// Number of programs or datasets that failed (compile error, run-time
    /// error, wrong result); each is reported on `out`.
    pub failures: usize,
}

/// Benchmarks every file, printing one line per dataset to `out`.
pub fn bench_files(
    backend: &dyn Backend,
    files: &[PathBuf],
    options: &BenchOptions,
    out: &mut dyn Write,
) -> BenchReport {
    let mut report = BenchReport::default();
    for f in files {
        bench_file(backend, f, options, out, &mut report);
    }
    report
}

fn excluded(backend: &dyn Backend, options: &BenchOptions, tags: &[String]) -> Option<String> {
    let own = format!("no_{}", backend.name());
    if backend.is_interpreter() && tags.iter().any(|t| t == "compiled") {
        return Some("marked `compiled`".into());
    }
    tags.iter()
        .find(|t| {
            matches!(t.as_str(), "disable" | "nobench") || **t == own || options.exclude.contains(t)
        })
        .map(|t| format!("tagged `{t}`"))
}

fn bench_file(
    backend: &dyn Backend,
    path: &Path,
    options: &BenchOptions,
    out: &mut dyn Write,
    report: &mut BenchReport,
) {
    let shown = path.display();
    let spec = match std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the file: {e}"))
        .and_then(|src| parse_spec(path, &src).map_err(|e| format!("malformed test block: {e}")))
    {
        Ok(s) => s,
        Err(e) => {
            report.failures += 1;
            let _ = writeln!(out, "{shown}: error: {e}");
            return;
        }
    };
    let file_tags: Vec<String> = spec.tags().map(str::to_string).collect();
    if let Some(why) = excluded(backend, options, &file_tags) {
        let _ = writeln!(out, "{shown}: skipped: {why}");
        return;
    }
    let datasets = datasets(&spec, options);
    if datasets.is_empty() {
        return;
    }
    let loaded = crate::runner::tuning_of(path, options.tuning.as_deref())
        .map_err(|e| DriverError::Runtime(parad_driver::Message::Text(e)))
        .and_then(|tuning| backend.load_tuned(path, &tuning));
    let mut program = match loaded {
        Ok(p) => p,
        Err(e) if e.is_unsupported() => {
            let _ = writeln!(out, "{shown}: skipped: {}", e.render());
            return;
        }
        Err(e) => {
            report.failures += 1;
            let _ = writeln!(out, "{shown}: compilation failed:\n{}", e.render());
            return;
        }
    };
    if let Some(note) = program.compile_note() {
        let _ = writeln!(out, "{shown}: {note}");
    }
    for (entry, dataset, case) in datasets {
        let heading = format!("{shown}:{entry} {dataset}");
        if let Some(why) = excluded(backend, options, &case.modifiers) {
            let _ = writeln!(out, "{heading}: skipped: {why}");
            continue;
        }
        match bench_case(program.as_mut(), path, entry, case, options.runs) {
            Ok((runtimes, peak_memory)) => {
                let r = BenchResult {
                    program: path.to_path_buf(),
                    entry: entry.to_string(),
                    dataset,
                    runtimes,
                    peak_memory,
                };
                let memory = r
                    .peak_memory
                    .map(|b| format!(", peak memory {}", show_bytes(b)))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{heading}: min {}, median {} ({} runs){memory}",
                    show(r.min()),
                    show(r.median()),
                    r.runtimes.len()
                );
                report.results.push(r);
            }
            Err(Skip(why)) => {
                let _ = writeln!(out, "{heading}: skipped: {why}");
            }
            Err(Fail(why)) => {
                report.failures += 1;
                let _ = writeln!(out, "{heading}: failed: {why}");
            }
        }
    }
}

/// The (entry, dataset name, case) triples of a test block that `options`
/// select, in file order.
fn datasets<'s>(spec: &'s TestSpec, options: &BenchOptions) -> Vec<(&'s str, String, &'s Case)> {
    let mut datasets = vec![];
    let mut index = 0;
    for item in spec.blocks.iter().flat_map(|b| &b.items) {
        if let Item::Cases { entries, cases } = item {
            for case in cases {
                index += 1;
                for e in entries {
                    if options.entry.as_ref().is_none_or(|only| only == e) {
                        datasets.push((e.as_str(), dataset_name(index, case), case));
                    }
                }
            }
        }
    }
    datasets
}

/// Compiles, `concurrency` at a time, the programs among `files` that
/// [`bench_files`] will time, so that the timing phase finds them in the
/// backend's cache of compiled programs (Futhark's bench "prepares"
/// programs concurrently in the same way). Failures are not reported here:
/// the timing phase meets and reports them. Backends without a cache (the
/// interpreter) have nothing to prepare.
pub fn prepare(
    backend: &(dyn Backend + Sync),
    files: &[PathBuf],
    options: &BenchOptions,
    concurrency: usize,
) {
    if backend.is_interpreter() || concurrency < 2 || files.len() < 2 {
        return;
    }
    let timed = |path: &Path| {
        let Ok(source) = std::fs::read_to_string(path) else {
            return false;
        };
        let Ok(spec) = parse_spec(path, &source) else {
            return false;
        };
        let tags: Vec<String> = spec.tags().map(str::to_string).collect();
        excluded(backend, options, &tags).is_none() && !datasets(&spec, options).is_empty()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(files.len()) {
            let (next, timed) = (&next, &timed);
            let work = move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = files.get(k) else { break };
                if timed(path) {
                    let _ = backend.load(path);
                }
            };
            // A thread that cannot start leaves its share to the timing phase.
            let _ = std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn_scoped(scope, work);
        }
    });
}

enum Problem {
    Skip(String),
    Fail(String),
}
use Problem::{Fail, Skip};

/// The times of the timed runs, and the largest peak memory among them
/// (where the backend counts it).
type Timings = (Vec<Duration>, Option<u64>);

/// Warm-up run with result check, then `runs` timed runs.
fn bench_case(
    program: &mut dyn Loaded,
    path: &Path,
    entry: &str,
    case: &Case,
    runs: usize,
) -> Result<Timings, Problem> {
    if !program.has_entry(entry) {
        return Err(Fail(format!("the program has no entry point `{entry}`")));
    }
    let params = program.param_types(entry).unwrap_or_default();
    let args = script::case_args(path, case, program, &params).map_err(|e| match e {
        InputError::Unsupported(why) => Skip(format!("not supported: {why}")),
        InputError::Bad(e) => Fail(format!("bad input: {e}")),
    })?;
    let call = |p: &mut dyn Loaded| p.call(entry, args.clone()).map_err(problem);
    match &case.expect {
        Expect::RunError(_) => return Err(Skip("the case expects an error".into())),
        Expect::Output(expected) => {
            let actual = call(program)?;
            let expected = data::read(expected).map_err(Fail)?;
            data::check_results(&expected, &actual).map_err(Fail)?;
        }
        Expect::Success | Expect::AutoOutput => {
            call(program)?;
        }
    }
    let mut times = Vec::with_capacity(runs);
    let mut peak = None;
    for _ in 0..runs {
        let a = args.clone();
        program.reset_peak_memory();
        let start = Instant::now();
        let r = program.call(entry, a);
        let t = start.elapsed();
        // Results are dropped outside the timed region.
        r.map_err(problem)?;
        times.push(t);
        peak = peak.max(program.peak_memory());
    }
    Ok((times, peak))
}

fn problem(e: DriverError) -> Problem {
    if e.is_unsupported() {
        Skip(e.render())
    } else {
        Fail(format!("run-time error:\n{}", e.render()))
    }
}

/// The dataset's name: its quoted name, else its position and a short
/// description of the input.
fn dataset_name(index: usize, case: &Case) -> String {
    if let Some(n) = &case.name {
        return n.clone();
    }
    let what = match &case.input {
        Input::Values(Values::File(f)) | Input::Script(Values::File(f)) => f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        Input::Values(Values::Inline { text, .. }) | Input::Script(Values::Inline { text, .. }) => {
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        }
        Input::Random { items, .. } => items.join(" "),
    };
    let short: String = what.chars().take(40).collect();
    let ellipsis = if short.len() < what.len() { "..." } else { "" };
    format!("#{index} (\"{short}{ellipsis}\")")
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1}us")
    } else if us < 1e6 {
        format!("{:.2}ms", us / 1e3)
    } else {
        format!("{:.3}s", us / 1e6)
    }
}

fn show_bytes(b: u64) -> String {
    match b {
        b if b < 1 << 10 => format!("{b} B"),
        b if b < 1 << 20 => format!("{:.1} KiB", b as f64 / 1024.0),
        b if b < 1 << 30 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64),
    }
}

/// Results as JSON in the layout of `futhark bench --json`:
/// `{"prog.fut:entry": {"datasets": {"name": {"runtimes": [µs, ...]}}}}`,
/// with `"peak_bytes": N` after the runtimes where memory was counted.
pub fn to_json(results: &[BenchResult]) -> String {
    let mut groups: Vec<(String, Vec<&BenchResult>)> = vec![];
    for r in results {
        let key = format!("{}:{}", r.program.display(), r.entry);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    let mut s = String::from("{");
    for (i, (key, rs)) in groups.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(s, "{sep}\n  {}: {{\"datasets\": {{", json_string(key));
        for (j, r) in rs.iter().enumerate() {
            let times: Vec<String> = r
                .runtimes
                .iter()
                .map(|t| t.as_micros().to_string())
                .collect();
            let sep = if j > 0 { "," } else { "" };
            let peak = r
                .peak_memory
                .map(|b| format!(", \"peak_bytes\": {b}"))
                .unwrap_or_default();
            let _ = write!(
                s,
                "{sep}\n    {}: {{\"runtimes\": [{}]{peak}}}",
                json_string(&r.dataset),
                times.join(", ")
            );
        }
        s.push_str("\n  }}");
    }
    s.push_str("\n}\n");
    s
}

fn json_string(text: &str) -> String {
    let mut s = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
