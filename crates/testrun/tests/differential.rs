//! Differential test of the backends: every case of every test block in
//! the repository's `tests/` folder runs on the interpreter (the oracle)
//! and on the compiled C backend, on the case's own input and on random
//! variants of it (same shapes and types, small values, seeded), and on
//! one variant where one size changes. Both runs must succeed or fail
//! alike: equal results (integers and booleans exactly, floats within a
//! tolerance), or the same error message.
//!
//! The C code runs in the test process, so a crash would take the whole
//! test down. The test therefore runs its work in a child process (this
//! same test binary, told by an environment variable which file to start
//! from) that announces each call before making it; when the child dies,
//! the call it announced last is reported as a crash and a new child
//! carries on with the next call. A call that does not answer in time is
//! a mismatch when the C backend makes it, and skipped when the
//! interpreter does (random inputs can keep a loop from ending).
//!
//! Variables: `PARAD_DIFF_ONLY=SUBSTRING` runs only the files whose path
//! contains it; `PARAD_CACHE_DIR` as for parad (default: a folder of the
//! target directory, shared with the CLI's C-backend test).

use parad_driver::{Backend, Config, DriverError, Interp, Loaded, C};
use parad_testrun::spec::{Case, Expect, Item};
use parad_testrun::{case_input, find_fut_files, parse_spec};
use parad_values::{values_to_text, ArrayData, ArrayValue, Scalar, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use std::time::Instant;

/// Set in the child process: the index of the first file to run.
const WORKER: &str = "PARAD_DIFF_WORKER_START";
/// The longest one call of an entry point may take on one backend.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest loading a program (front end, C compilation) may take.
const LOAD_TIMEOUT: Duration = Duration::from_secs(300);

fn timeout_of(phase: &str) -> Duration {
    if phase == "load" {
        LOAD_TIMEOUT
    } else {
        CALL_TIMEOUT
    }
}
/// Random same-shape variants per case.
const RANDOM_VARIANTS: usize = 3;
/// Cases whose inputs have more elements get no random variants (the
/// interpreter is slow on them).
const MAX_VARIANT_ELEMENTS: usize = 20_000;

fn root() -> PathBuf {
    let r = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    r.canonicalize().unwrap_or(r)
}

fn cache_dir() -> PathBuf {
    std::env::var_os("PARAD_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("parad-cache"))
}

fn files() -> Vec<PathBuf> {
    let mut files = find_fut_files(&[root()]).unwrap();
    if let Ok(only) = std::env::var("PARAD_DIFF_ONLY") {
        files.retain(|f| f.to_string_lossy().contains(&only));
    }
    files
}

#[test]
fn interpreter_and_c_backend_agree() {
    if let Ok(start) = std::env::var(WORKER) {
        let (file, call) = start.split_once(':').unwrap();
        worker(file.parse().unwrap(), call.parse().unwrap());
        return;
    }
    let t0 = Instant::now();
    let files = files();
    // Where the next child starts: a file, and the calls of that file
    // already made (by a child that died or hung after them).
    let mut start = 0;
    let mut start_call = 0;
    let mut mismatches: Vec<String> = vec![];
    let mut skipped: Vec<String> = vec![];
    let mut stats = [0usize; 2];
    while start < files.len() {
        if start > 0 || start_call > 0 {
            eprintln!("differential: a new child from file {start}, call {start_call}");
        }
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "interpreter_and_c_backend_agree",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(WORKER, format!("{start}:{start_call}"))
            .env("PARAD_CACHE_DIR", cache_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Lines of the child's stdout arrive through a channel, so that a
        // call that runs too long (random inputs can make a loop run for
        // ever) can be noticed and the child killed.
        let (tx, rx) = mpsc::channel::<String>();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = child.stderr.take().unwrap();
        let err_thread = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = BufReader::new(stderr).read_to_string(&mut text);
            text
        });
        let mut file: Option<usize> = None;
        let mut call = String::new();
        let mut seq = 0usize;
        let mut phase = String::new();
        let mut done = false;
        let mut timed_out = false;
        let mut report: Option<String> = None;
        loop {
            let line = match rx.recv_timeout(timeout_of(&phase)) {
                Ok(l) => l,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out = true;
                    let _ = child.kill();
                    break;
                }
            };
            if let Some(r) = report.as_mut() {
                if line == "@@end" {
                    mismatches.push(report.take().unwrap());
                } else {
                    r.push_str(&line);
                    r.push('\n');
                }
            } else if let Some(rest) = line.strip_prefix("@@file ") {
                file = Some(rest.split(' ').next().unwrap().parse().unwrap());
            } else if let Some(rest) = line.strip_prefix("@@load ") {
                phase = "load".into();
                call = rest.to_string();
            } else if let Some(rest) = line.strip_prefix("@@call ") {
                // `@@call SEQ PHASE text`
                let mut parts = rest.splitn(3, ' ');
                seq = parts.next().unwrap().parse().unwrap();
                phase = parts.next().unwrap().to_string();
                call = parts.next().unwrap_or("").to_string();
            } else if line == "@@mismatch" {
                report = Some(String::new());
            } else if let Some(rest) = line.strip_prefix("@@skip ") {
                skipped.push(rest.to_string());
            } else if let Some(rest) = line.strip_prefix("@@stats ") {
                let n: Vec<usize> = rest.split(' ').map(|x| x.parse().unwrap()).collect();
                stats[0] += n[0];
                stats[1] += n[1];
            } else if line == "@@done" {
                done = true;
            }
        }
        let status = child.wait().unwrap();
        let err = err_thread.join().unwrap_or_default();
        if done && status.success() {
            break;
        }
        let tail: Vec<&str> = err.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let what = if timed_out {
            format!("no answer within {:?}", timeout_of(&phase))
        } else {
            format!(
                "the test process died ({status}); its stderr ends:\n{}",
                tail.join("\n")
            )
        };
        match phase.as_str() {
            // An input on which the interpreter does not finish (a loop
            // that random values keep from ending) says nothing about the
            // C backend.
            "interp" if timed_out => {
                skipped.push(format!("{call}: the interpreter does not finish"))
            }
            "load" => mismatches.push(format!("{call}: {what}\n")),
            _ => mismatches.push(format!("{call} ({phase}): {what}\n")),
        }
        let Some(f) = file else { break };
        if phase == "load" {
            start = f + 1;
            start_call = 0;
        } else {
            start = f;
            start_call = seq;
        }
    }
    eprintln!(
        "differential: {} calls compared in {} case(s), {:.1?}",
        stats[1],
        stats[0],
        t0.elapsed()
    );
    eprintln!("differential: {} skipped:", skipped.len());
    for s in &skipped {
        eprintln!("  {s}");
    }
    if !mismatches.is_empty() {
        for m in &mismatches {
            eprintln!("MISMATCH {m}");
        }
        panic!(
            "{} mismatch(es) between the interpreter and the C backend (see above)",
            mismatches.len()
        );
    }
}

/// The child: runs every file from index `start`, printing `@@` lines
/// for the parent.
fn worker(start: usize, start_call: usize) {
    // The test harness has printed `test NAME ... ` without a newline.
    println!();
    let files = files();
    let interp = Interp::new(Config::default());
    let c = C::new(Config::default(), Some(2));
    for (i, path) in files.iter().enumerate().skip(start) {
        let rel = path
            .strip_prefix(root())
            .unwrap_or(path)
            .display()
            .to_string();
        println!("@@file {i} {rel}");
        let mut run = FileRun {
            rel: &rel,
            path,
            cases: 0,
            calls: 0,
            seq: 0,
            skip_calls: if i == start { start_call } else { 0 },
        };
        run.run(&interp, &c);
        println!("@@stats {} {}", run.cases, run.calls);
    }
    println!("@@done");
}

struct FileRun<'a> {
    rel: &'a str,
    path: &'a Path,
    cases: usize,
    calls: usize,
    /// Calls announced so far in this file.
    seq: usize,
    /// Calls made already by an earlier child: not made again.
    skip_calls: usize,
}

fn skip(what: impl std::fmt::Display, why: &str) {
    let why = why.lines().next().unwrap_or("").trim();
    println!("@@skip {what}: {why}");
}

fn mismatch(text: &str) {
    println!("@@mismatch\n{}\n@@end", text.trim_end());
}

impl FileRun<'_> {
    fn run(&mut self, interp: &Interp, c: &C) {
        let Ok(text) = std::fs::read_to_string(self.path) else {
            return;
        };
        let Ok(spec) = parse_spec(self.path, &text) else {
            return;
        };
        if let Some(t) = spec
            .tags()
            .find(|t| matches!(*t, "disable" | "notest" | "no_c" | "no_interp"))
        {
            return skip(self.rel, &format!("tagged `{t}`"));
        }
        let mut cases: Vec<(&str, &Case)> = vec![];
        for item in spec.blocks.iter().flat_map(|b| &b.items) {
            if let Item::Cases { entries, cases: cs } = item {
                for case in cs {
                    for e in entries {
                        cases.push((e, case));
                    }
                }
            }
        }
        if cases.is_empty() {
            return;
        }
        // Both backends share the front end: a program that does not
        // compile fails alike (the test runner checks the message).
        let Ok(mut ip) = interp.load(self.path) else {
            return;
        };
        println!("@@load {}: loading with the C backend", self.rel);
        let mut cp = match c.load(self.path) {
            Ok(p) => p,
            Err(e) if e.is_unsupported() => return skip(self.rel, &e.render()),
            Err(e) => {
                return mismatch(&format!(
                    "{}: the interpreter loads the program, the C backend fails:\n{}",
                    self.rel,
                    e.render()
                ))
            }
        };
        for (entry, case) in cases {
            let at = format!("{}: entry {entry}, line {}", self.rel, case.line);
            if let Some(m) = case
                .modifiers
                .iter()
                .find(|m| matches!(m.as_str(), "compiled" | "no_c" | "no_interp"))
            {
                skip(&at, &format!("marked `{m}`"));
                continue;
            }
            let params = ip.param_types(entry).unwrap_or_default();
            let args = match case_input(self.path, case, &params) {
                Ok(Some(a)) => a,
                _ => continue,
            };
            self.cases += 1;
            let seed = fnv(&format!("{}:{entry}:{}", self.rel, case.line));
            let mut rng = StdRng::seed_from_u64(seed);
            let mut variants = vec![("own input".to_string(), args.clone())];
            let elements: usize = args
                .iter()
                .map(|a| a.shape().iter().product::<usize>())
                .sum();
            if elements <= MAX_VARIANT_ELEMENTS {
                for k in 0..RANDOM_VARIANTS {
                    // The first variants keep the scalar arguments (often
                    // sizes or indices), the last one draws them too.
                    let scalars = k + 1 == RANDOM_VARIANTS;
                    let v = args
                        .iter()
                        .map(|a| randomize(a, scalars, &mut rng))
                        .collect();
                    variants.push((format!("random #{k}"), v));
                }
                if let Some((v, what)) = reshape(&args, &mut rng) {
                    variants.push((format!("random, {what}"), v));
                }
            }
            for (name, input) in variants {
                self.compare(
                    ip.as_mut(),
                    cp.as_mut(),
                    &at,
                    entry,
                    &name,
                    input,
                    matches!(case.expect, Expect::RunError(_)),
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        ip: &mut dyn Loaded,
        cp: &mut dyn Loaded,
        at: &str,
        entry: &str,
        variant: &str,
        input: Vec<Value>,
        _expects_error: bool,
    ) {
        self.seq += 1;
        if self.seq <= self.skip_calls {
            return;
        }
        let seq = self.seq;
        let shown = abbreviate(&values_to_text(&input));
        println!("@@call {seq} interp {at}, {variant}, input {shown}");
        let ri = ip.call(entry, input.clone());
        if let Err(e) = &ri {
            if e.is_unsupported() {
                return skip(format!("{at}, {variant}"), &e.render());
            }
        }
        println!("@@call {seq} c {at}, {variant}, input {shown}");
        let rc = cp.call(entry, input);
        self.calls += 1;
        let head = format!("{at}, {variant}\n  input: {shown}");
        match (ri, rc) {
            (_, Err(e)) if e.is_unsupported() => skip(format!("{at}, {variant}"), &e.render()),
            (Ok(a), Ok(b)) => {
                if let Err(d) = compare_results(&a, &b) {
                    mismatch(&format!(
                        "{head}\n  {d}\n  interp: {}\n  c:      {}",
                        abbreviate(&values_to_text(&a)),
                        abbreviate(&values_to_text(&b))
                    ));
                }
            }
            (Err(a), Err(b)) => {
                let (a, b) = (a.render(), b.render());
                if a != b {
                    mismatch(&format!(
                        "{head}\n  different errors:\n  interp: {}\n  c:      {}",
                        indent(&a),
                        indent(&b)
                    ));
                }
            }
            (Ok(a), Err(b)) => mismatch(&format!(
                "{head}\n  the interpreter succeeds with {}\n  the C backend fails: {}",
                abbreviate(&values_to_text(&a)),
                indent(&render(&b))
            )),
            (Err(a), Ok(b)) => mismatch(&format!(
                "{head}\n  the interpreter fails: {}\n  the C backend succeeds with {}",
                indent(&render(&a)),
                abbreviate(&values_to_text(&b))
            )),
        }
    }
}

fn render(e: &DriverError) -> String {
    e.render()
}

fn indent(s: &str) -> String {
    s.trim_end().replace('\n', "\n          ")
}

fn abbreviate(s: &str) -> String {
    let s = s.trim_end().replace('\n', " ");
    if s.chars().count() > 400 {
        let cut: String = s.chars().take(400).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// FNV-1a, stable across Rust versions.
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A small random integer, zero more often than the others.
fn small_int(rng: &mut StdRng, signed: bool) -> i64 {
    if rng.gen_bool(0.15) {
        0
    } else if signed {
        rng.gen_range(-10..=10)
    } else {
        rng.gen_range(0..=10)
    }
}

fn random_scalar(like: Scalar, rng: &mut StdRng) -> Scalar {
    let f = |rng: &mut StdRng| rng.gen_range(-2.0..2.0f64);
    match like {
        Scalar::I8(_) => Scalar::I8(small_int(rng, true) as i8),
        Scalar::I16(_) => Scalar::I16(small_int(rng, true) as i16),
        Scalar::I32(_) => Scalar::I32(small_int(rng, true) as i32),
        Scalar::I64(_) => Scalar::I64(small_int(rng, true)),
        Scalar::U8(_) => Scalar::U8(small_int(rng, false) as u8),
        Scalar::U16(_) => Scalar::U16(small_int(rng, false) as u16),
        Scalar::U32(_) => Scalar::U32(small_int(rng, false) as u32),
        Scalar::U64(_) => Scalar::U64(small_int(rng, false) as u64),
        Scalar::F16(_) => Scalar::F16(half::f16::from_f64(f(rng))),
        Scalar::F32(_) => Scalar::F32(f(rng) as f32),
        Scalar::F64(_) => Scalar::F64(f(rng)),
        Scalar::Bool(_) => Scalar::Bool(rng.gen()),
    }
}

/// A random array of the element type of `like`. Integer elements are
/// distinct when those of `like` are (a `scatter` whose indices repeat
/// with different values has no specified result, so such arrays must
/// not get repeats they did not have); otherwise small and repeating.
fn random_array(shape: Vec<usize>, like: &ArrayData, rng: &mut StdRng) -> Value {
    let n: usize = shape.iter().product();
    let t = like.elem_type();
    let proto = like.get(0).unwrap_or_else(|| zero_of(like));
    let mut data = ArrayData::with_capacity(t, n);
    let int = !matches!(
        like,
        ArrayData::F16(_) | ArrayData::F32(_) | ArrayData::F64(_) | ArrayData::Bool(_)
    );
    let distinct = int && {
        let mut seen: Vec<String> = (0..like.len())
            .filter_map(|k| like.get(k))
            .map(|x| format!("{x:?}"))
            .collect();
        let len = seen.len();
        seen.sort();
        seen.dedup();
        seen.len() == len
    };
    if distinct {
        let signed = matches!(
            proto,
            Scalar::I8(_) | Scalar::I16(_) | Scalar::I32(_) | Scalar::I64(_)
        );
        let r = (n as i64).max(10);
        let mut pool: Vec<i64> = if signed {
            (-r..=r).collect()
        } else {
            (0..=2 * r).collect()
        };
        for k in 0..n {
            let j = rng.gen_range(k..pool.len());
            pool.swap(k, j);
            data.push(int_like(proto, pool[k]));
        }
    } else {
        for _ in 0..n {
            data.push(random_scalar(proto, rng));
        }
    }
    Value::Array(ArrayValue::new(shape, data).unwrap())
}

/// `x` as a scalar of the integer type of `like` (wrapping).
fn int_like(like: Scalar, x: i64) -> Scalar {
    match like {
        Scalar::I8(_) => Scalar::I8(x as i8),
        Scalar::I16(_) => Scalar::I16(x as i16),
        Scalar::I32(_) => Scalar::I32(x as i32),
        Scalar::U8(_) => Scalar::U8(x as u8),
        Scalar::U16(_) => Scalar::U16(x as u16),
        Scalar::U32(_) => Scalar::U32(x as u32),
        Scalar::U64(_) => Scalar::U64(x as u64),
        _ => Scalar::I64(x),
    }
}

/// A scalar of the element type of `d` (for empty arrays).
fn zero_of(d: &ArrayData) -> Scalar {
    match d {
        ArrayData::I8(_) => Scalar::I8(0),
        ArrayData::I16(_) => Scalar::I16(0),
        ArrayData::I32(_) => Scalar::I32(0),
        ArrayData::I64(_) => Scalar::I64(0),
        ArrayData::U8(_) => Scalar::U8(0),
        ArrayData::U16(_) => Scalar::U16(0),
        ArrayData::U32(_) => Scalar::U32(0),
        ArrayData::U64(_) => Scalar::U64(0),
        ArrayData::F16(_) => Scalar::F16(half::f16::ZERO),
        ArrayData::F32(_) => Scalar::F32(0.0),
        ArrayData::F64(_) => Scalar::F64(0.0),
        ArrayData::Bool(_) => Scalar::Bool(false),
    }
}

/// `v` with random contents of the same shape; scalars too when `scalars`.
fn randomize(v: &Value, scalars: bool, rng: &mut StdRng) -> Value {
    match v {
        Value::Scalar(s) if scalars => Value::Scalar(random_scalar(*s, rng)),
        Value::Scalar(_) => v.clone(),
        Value::Array(a) => random_array(a.shape.clone(), &a.data, rng),
    }
}

/// The arguments with one size `d` changed everywhere it occurs (every
/// array dimension equal to `d`, and every `i64` scalar equal to `d`,
/// which is likely that size passed explicitly), with random contents.
fn reshape(args: &[Value], rng: &mut StdRng) -> Option<(Vec<Value>, String)> {
    let mut sizes: Vec<usize> = args.iter().flat_map(|a| a.shape().to_vec()).collect();
    sizes.sort();
    sizes.dedup();
    if sizes.is_empty() {
        return None;
    }
    let d = sizes[rng.gen_range(0..sizes.len())];
    let candidates: Vec<usize> = [0, 1, d.saturating_sub(1), d + 1, d + 2]
        .into_iter()
        .filter(|&n| n != d)
        .collect();
    let n = candidates[rng.gen_range(0..candidates.len())];
    let out = args
        .iter()
        .map(|a| match a {
            Value::Scalar(Scalar::I64(x)) if *x == d as i64 => Value::Scalar(Scalar::I64(n as i64)),
            Value::Scalar(_) => a.clone(),
            Value::Array(arr) => {
                let shape = arr
                    .shape
                    .iter()
                    .map(|&s| if s == d { n } else { s })
                    .collect();
                random_array(shape, &arr.data, rng)
            }
        })
        .collect();
    Some((out, format!("size {d} changed to {n}")))
}

/// Compares results: types and shapes exactly, integers and booleans
/// exactly, floats within [`close`].
fn compare_results(a: &[Value], b: &[Value]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} result(s) against {}", a.len(), b.len()));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        compare_value(x, y).map_err(|d| format!("result #{i}: {d}"))?;
    }
    Ok(())
}

fn compare_value(a: &Value, b: &Value) -> Result<(), String> {
    if a.type_name() != b.type_name() || a.shape() != b.shape() {
        return Err(format!(
            "type or shape differs: {} {:?} against {} {:?}",
            a.type_name(),
            a.shape(),
            b.type_name(),
            b.shape()
        ));
    }
    let (da, db, shape) = match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => {
            let mut da = ArrayData::empty(x.prim_type());
            da.push(*x);
            let mut db = ArrayData::empty(y.prim_type());
            db.push(*y);
            (da, db, vec![])
        }
        (Value::Array(x), Value::Array(y)) => (x.data.clone(), y.data.clone(), x.shape.clone()),
        _ => return Err("a scalar against an array".into()),
    };
    let floats = |d: &ArrayData| -> Option<(Vec<f64>, f64, f64)> {
        // (values, relative tolerance, tolerance relative to the largest
        // magnitude, for sums whose order differs)
        match d {
            ArrayData::F64(v) => Some((v.clone(), 1e-9, 1e-6)),
            ArrayData::F32(v) => Some((v.iter().map(|&x| x as f64).collect(), 1e-4, 1e-3)),
            ArrayData::F16(v) => Some((v.iter().map(|x| x.to_f64()).collect(), 1e-4, 1e-2)),
            _ => None,
        }
    };
    if let (Some((fa, rel, loose)), Some((fb, _, _))) = (floats(&da), floats(&db)) {
        let largest = fa
            .iter()
            .filter(|x| x.is_finite())
            .fold(1.0f64, |m, x| m.max(x.abs()));
        let mut bad = 0;
        let mut first = None;
        for (k, (&x, &y)) in fa.iter().zip(&fb).enumerate() {
            let ok = x == y
                || (x.is_nan() && y.is_nan())
                || (x - y).abs() <= rel * x.abs().max(y.abs())
                || (x - y).abs() <= loose * largest;
            if !ok {
                bad += 1;
                first.get_or_insert((k, x, y));
            }
        }
        if let Some((k, x, y)) = first {
            return Err(format!(
                "{bad} of {} float(s) differ; first at {:?}: interp {x:e}, c {y:e}",
                fa.len(),
                parad_values::compare::unflatten(k, &shape)
            ));
        }
        return Ok(());
    }
    if da != db {
        let k = (0..da.len()).find(|&k| da.get(k) != db.get(k)).unwrap_or(0);
        let count = (0..da.len()).filter(|&k| da.get(k) != db.get(k)).count();
        return Err(format!(
            "{count} of {} element(s) differ; first at {:?}: interp {:?}, c {:?}",
            da.len(),
            parad_values::compare::unflatten(k, &shape),
            da.get(k),
            db.get(k)
        ));
    }
    Ok(())
}
