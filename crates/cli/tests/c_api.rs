//! Futhark's C API as a user meets it: a program compiled with
//! `parad c --library` and `parad multicore --library`, the library
//! compiled with `cc -std=c99 -O2 -c`, and C test programs of ours
//! (`tests/c_api/*.c`) compiled against its header with
//! `-std=c99 -pedantic -Wall -Wextra -Werror` and run. Each C program
//! checks its own results and prints "ok" last. Also the manifest
//! (`NAME.json`), every C program under AddressSanitizer, LeakSanitizer
//! and UBSan, and the threads program under ThreadSanitizer.
//!
//! Skipped (with a note on stderr) where there is no `cc`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The library all the C programs use. Its line numbers matter to
/// `runtime_errors` (found by searching for the entry names).
const PROGRAM: &str = r#"-- The C API tests' library (crates/cli/tests/c_api.rs).
type pt = {y: f64, x: f64}
type order = {b: i32, a10: i32, a2: i32}
type obs [n] = {weights: [n]f32, labels: [n]i32, count: i64}
type shape = #rect f64 f64 | #circle f64 | #empty
type opt [n] = #none | #some ([n]i32)

module counter : {
  type t
  val mk : i64 -> t
  val get : t -> i64
} = {
  type t = [2]i64
  def mk (x: i64) : t = [x, x * x]
  def get (c: t) = c[0] + c[1]
}
type ctr = counter.t

-- scalars
entry neg_i8 (x: i8) : i8 = -x
entry inc_u16 (x: u16) : u16 = x + 1
entry half_f16 (x: f16) : f16 = x / 2
entry not_bool (b: bool) : bool = !b
entry scale (a: f64) (b: f64) : f64 = a * b
entry wrap_u64 (x: u64) : u64 = x + 1

-- arrays of ranks 1 to 3
entry add1 (xs: []f32) : []f32 = map (+ 1) xs
entry rev_i8 (xs: []i8) : []i8 = reverse xs
entry neg_f16 (xs: []f16) : []f16 = map f16.neg xs
entry sum_u32 (xs: []u32) : u32 = u32.sum xs
entry iota_u8 (n: i64) : []u8 = map u8.i64 (iota n)
entry transp (xss: [][]f64) : [][]f64 = transpose xss
entry not2 (bss: [][]bool) : [][]bool = map (map (\b -> !b)) bss
entry inc3 (x: [][][]i64) : [][][]i64 = map (map (map (+ 1))) x
entry sum3 (x: [][][]i16) : i16 = i16.sum (flatten (flatten x))
entry id_i32 (xs: []i32) : []i32 = xs
#[consumer]
entry upd (xs: *[]i32) : *[]i32 = xs with [0] = 100

-- derivatives
def cubes (xs: []f64) : f64 = f64.sum (map (\x -> x * x * x) xs) + xs[0] * xs[1]
entry cubes_grad (xs: []f64) : []f64 = vjp cubes xs 1.0
entry xsin_grad (x: f64) : f64 = vjp (\x -> x * f64.sin x) x 1.0

-- records and tuples
entry mkpt (x: f64) (y: f64) : pt = {y, x}
entry norm (p: pt) : f64 = p.x * p.x + p.y * p.y
entry swap (p: pt) : pt = {x = p.y, y = p.x}
entry mkorder (x: i32) : order = {b = x, a10 = x + 10, a2 = x + 2}
entry order_code (o: order) : i32 = o.a10 * 100 + o.a2 * 10 + o.b
entry mkobs [n] (ws: [n]f32) (ls: [n]i32) : obs [n] = {weights = ws, labels = ls, count = n}
entry obs_total [n] (o: obs [n]) : f32 =
  f32.sum (map2 (\w l -> w * f32.i32 l) o.weights o.labels) + f32.i64 o.count
entry pair (a: i32) (b: bool) : (i32, bool) = (a, b)
entry eleven (x: i32) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) =
  (x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9, x + 10)
entry eleven_code (t: (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)) : i32 =
  t.0 + 2 * t.1 + 3 * t.10

-- sums
entry area (s: shape) : f64 =
  match s
  case #circle r -> 3 * r * r
  case #rect a b -> a * b
  case #empty -> 0
entry mkshape (k: i32) (a: f64) (b: f64) : shape =
  if k == 0 then #circle a else if k == 1 then #rect a b else #empty
entry mk_some [n] (xs: [n]i32) : opt [n] = #some xs
entry opt_sum [n] (o: opt [n]) : i32 =
  match o
  case #some xs -> i32.sum xs
  case #none -> -1

-- arrays of records and tuples
entry pts (xs: []f64) (ys: []f64) : []pt = map2 (\x y -> {x, y}) xs ys
entry pts_code (ps: []pt) : f64 = f64.sum (map (\p -> p.x * 10 + p.y) ps)
entry pts2 (n: i64) (m: i64) : [][]pt = tabulate_2d n m (\i j -> {x = f64.i64 i, y = f64.i64 j})
entry pts2_code (ps: [][]pt) : f64 = f64.sum (map (\p -> p.x * 10 + p.y) (flatten ps))
entry tups (n: i64) : [](i32, f32) = map (\i -> (i32.i64 i, f32.i64 i / 2)) (iota n)

-- arrays of an abstract type
entry ctrs (n: i64) : []ctr = map counter.mk (iota n)
entry ctrs2 (n: i64) (m: i64) : [][]ctr = tabulate_2d n m (\i j -> counter.mk (i * 10 + j))
entry ctr_total (cs: []ctr) : i64 = i64.sum (map counter.get cs)
entry ctr_total2 (cs: [][]ctr) : i64 = i64.sum (map counter.get (flatten cs))
entry mkctr (x: i64) : ctr = counter.mk x
entry getctr (c: ctr) : i64 = counter.get c

-- run-time errors
entry oob (xs: []i32) (i: i64) : i32 = xs[i]
entry checked (x: i32) : i32 = assert (x > 0) (x * 2)
entry pt_at (xs: []f64) (i: i64) : pt = {x = xs[i], y = 0}
entry dot [n] (a: [n]f64) (b: [n]f64) : f64 = f64.sum (map2 (*) a b)
entry pts_dot [n] (a: [n]pt) (b: [n]pt) : f64 = f64.sum (map2 (\p q -> p.x * q.x + p.y * q.y) a b)

-- for the threads
entry work (seed: i64) (n: i64) : i64 = i64.sum (map (\i -> (i * seed) % 7) (iota n))
"#;

const CHECK_H: &str = include_str!("c_api/check.h");

/// The C test programs, by name.
const TESTS: &[(&str, &str)] = &[
    ("context.c", include_str!("c_api/context.c")),
    ("arrays.c", include_str!("c_api/arrays.c")),
    ("records.c", include_str!("c_api/records.c")),
    ("aor.c", include_str!("c_api/aor.c")),
    ("store.c", include_str!("c_api/store.c")),
    ("errors.c", include_str!("c_api/errors.c")),
    ("lifetimes.c", include_str!("c_api/lifetimes.c")),
    ("vjp.c", include_str!("c_api/vjp.c")),
    ("threads.c", include_str!("c_api/threads.c")),
    ("index_copy.c", include_str!("c_api/index_copy.c")),
];

/// The C tests of known bugs, left out of the `sanitizers` run.
const KNOWN_BUGS: &[&str] = &["index_copy.c"];

const BACKENDS: [&str; 2] = ["c", "multicore"];

/// The flags a user's program is compiled with: the header must compile
/// cleanly under them.
const STRICT: &[&str] = &["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"];

const SANITIZE: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-g",
];

fn have_cc() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| {
        Command::new("cc")
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

/// Returns from the test (passing) with a note when there is no C compiler.
macro_rules! need_cc {
    () => {
        if !have_cc() {
            eprintln!("note: no `cc` on PATH: the C API test is skipped");
            return;
        }
    };
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(what: &str, o: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        text(&o.stdout),
        text(&o.stderr)
    )
}

fn run(cmd: &mut Command, what: &str) -> Output {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(o.status.success(), "{}", show(what, &o));
    o
}

/// A compiled library: `capi.{c,h,json,o}` in `dir`.
struct Lib {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

/// `parad BACKEND --library` of PROGRAM, then `cc -std=c99 -O2 -c` (with
/// `extra` flags) of the C file, as a user would.
fn build_lib(backend: &str, extra: &[&str]) -> Lib {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    std::fs::write(dir.join("capi.fut"), PROGRAM).unwrap();
    run(
        Command::new(env!("CARGO_BIN_EXE_parad"))
            .args([backend, "--library", "-o", "capi", "capi.fut"])
            .current_dir(&dir),
        &format!("parad {backend} --library"),
    );
    for f in ["capi.c", "capi.h", "capi.json"] {
        assert!(
            dir.join(f).is_file(),
            "parad {backend} --library wrote no {f}"
        );
    }
    run(
        Command::new("cc")
            .args(["-std=c99", "-O2"])
            .args(extra)
            .args(["-c", "capi.c", "-o", "capi.o"])
            .current_dir(&dir),
        &format!("cc -c capi.c ({backend})"),
    );
    Lib { _tmp: tmp, dir }
}

/// The library of each backend, built once for all tests.
fn lib(backend: &str) -> &'static Lib {
    static C: OnceLock<Lib> = OnceLock::new();
    static MC: OnceLock<Lib> = OnceLock::new();
    match backend {
        "c" => C.get_or_init(|| build_lib("c", &[])),
        "multicore" => MC.get_or_init(|| build_lib("multicore", &[])),
        _ => unreachable!(),
    }
}

fn c_source(name: &str) -> &'static str {
    TESTS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no C test {name}"))
        .1
}

/// Compiles the C test `name` against `lib` (with `extra` flags) in a
/// fresh folder; the executable's path.
fn build_test(lib: &Lib, name: &str, extra: &[&str], into: &Path) -> PathBuf {
    std::fs::write(into.join("check.h"), CHECK_H).unwrap();
    std::fs::write(into.join(name), c_source(name)).unwrap();
    let exe = into.join(name.trim_end_matches(".c"));
    run(
        Command::new("cc")
            .args(STRICT)
            .args(extra)
            .arg("-I")
            .arg(&lib.dir)
            .arg(name)
            .arg(lib.dir.join("capi.o"))
            .args(["-lm", "-lpthread", "-o"])
            .arg(&exe)
            .current_dir(into),
        &format!("cc {name}"),
    );
    exe
}

/// Builds and runs the C test `name` on both backends with `args`; each
/// must exit 0 with "ok" as the last line. The outputs, by backend.
fn c_test(name: &str, args: &[String]) -> Vec<String> {
    let mut outs = vec![];
    for backend in BACKENDS {
        let tmp = tempfile::tempdir().unwrap();
        let exe = build_test(lib(backend), name, &[], tmp.path());
        let o = run(
            Command::new(&exe).args(args).current_dir(tmp.path()),
            &format!("{name} ({backend})"),
        );
        let out = text(&o.stdout);
        assert_eq!(
            out.lines().last(),
            Some("ok"),
            "{}",
            show(&format!("{name} ({backend})"), &o)
        );
        outs.push(out);
    }
    outs
}

/// `capi.fut:LINE:` of the first line of PROGRAM that contains `what`.
fn span_of(what: &str) -> String {
    let line = PROGRAM
        .lines()
        .position(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no {what} in the program"));
    format!("capi.fut:{}:", line + 1)
}

fn error_spans() -> Vec<String> {
    vec![
        span_of("entry oob"),
        span_of("entry checked"),
        span_of("entry pt_at"),
        span_of("entry dot "),
        span_of("entry pts_dot"),
        span_of("entry obs_total"),
    ]
}

/// Configuration and context: errors handed over once, sync, report,
/// clear_caches, tuning parameters (none), threads (multicore), logging.
#[test]
fn context_and_configuration() {
    need_cc!();
    c_test("context.c", &[]);
}

/// Arrays of i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64 and bool,
/// scalars and ranks 1 to 3: new, values, shape, index (in and out of
/// bounds), new_raw/values_raw, empty arrays.
#[test]
fn primitive_values_and_arrays() {
    need_cc!();
    c_test("arrays.c", &[]);
}

/// Records (fields alphabetic: `a10` before `a2` before `b`), tuples
/// (numeric: `10` after `9`), records with array fields, and sums
/// (variants by constructor name): new, project, construct, destruct.
#[test]
fn records_tuples_and_sums() {
    need_cc!();
    c_test("records.c", &[]);
}

/// Arrays of records and tuples (zip of matching and mismatching sizes,
/// project, index, new, set; rank 1 and 2) and of an abstract type
/// (index, new, set, shape).
#[test]
fn arrays_of_records_and_of_opaques() {
    need_cc!();
    c_test("aor.c", &[]);
}

/// store/restore round trips of every kind of opaque value; restoring
/// garbage or another type's bytes fails with a message.
#[test]
fn store_and_restore() {
    need_cc!();
    c_test("store.c", &[]);
}

/// Out-of-bounds indexing, a failed assert and mismatched sizes between
/// inputs (arrays, arrays of records, a record's fields): a non-zero
/// code, a message naming `capi.fut` and the line, the output untouched,
/// and the context fine afterwards.
#[test]
fn runtime_errors() {
    need_cc!();
    c_test("errors.c", &error_spans());
}

/// Inputs, results, projections, zips, indexed elements and restored
/// values freed independently, in any order.
#[test]
fn lifetimes_in_any_order() {
    need_cc!();
    c_test("lifetimes.c", &[]);
}

/// A `vjp` derivative through the API against the hand-computed gradient.
#[test]
fn vjp_through_the_api() {
    need_cc!();
    c_test("vjp.c", &[]);
}

/// Threads with a context each calling entry points at once, and threads
/// sharing one context.
#[test]
fn threads() {
    need_cc!();
    c_test("threads.c", &[]);
}

/// `index` of an array of opaque values gives a copy of the element: a
/// later `set` of that row leaves it as it was.
/// (Elements with array leaves, e.g. an abstract type hiding `[2]i64`,
/// were once views of the array's block.)
#[test]
fn index_gives_a_copy() {
    need_cc!();
    c_test("index_copy.c", &[]);
}

/// Every C test program under AddressSanitizer (with LeakSanitizer) and
/// UBSan, library and program alike: no memory errors and no leaks when
/// everything is freed. Skipped where the compiler has no libasan.
#[test]
fn sanitizers() {
    need_cc!();
    let probe = tempfile::tempdir().unwrap();
    let src = probe.path().join("probe.c");
    std::fs::write(
        &src,
        "#include <stdlib.h>\nint main(int argc, char **argv) {\n  (void)argv;\n  \
         void *volatile p = malloc(16);\n  if (argc > 1) p = NULL;\n  else free(p);\n  return 0;\n}\n",
    )
    .unwrap();
    let exe = probe.path().join("probe");
    let built = Command::new("cc")
        .args(SANITIZE)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output();
    if !matches!(&built, Ok(o) if o.status.success())
        || !Command::new(&exe)
            .output()
            .is_ok_and(|o| o.status.success())
    {
        eprintln!("note: cc cannot build or run with -fsanitize=address,undefined: skipped");
        return;
    }
    // Whether LeakSanitizer works here (it does not under some tracers):
    // the probe leaks when given an argument.
    let leak = Command::new(&exe).arg("leak").output().unwrap();
    let leaks_checked = !leak.status.success() && text(&leak.stderr).contains("LeakSanitizer");
    if !leaks_checked {
        eprintln!(
            "note: LeakSanitizer does not report leaks here: memory errors only\n{}",
            text(&leak.stderr)
        );
    }
    // -O1 after the user's -O2: quicker to compile, as good for the checks.
    let lib_flags: Vec<&str> = SANITIZE.iter().copied().chain(["-O1"]).collect();
    let lib = build_lib("c", &lib_flags);
    let mlib = build_lib("multicore", &lib_flags);
    for (backend, lib) in [("c", &lib), ("multicore", &mlib)] {
        for (name, _) in TESTS.iter().filter(|(n, _)| !KNOWN_BUGS.contains(n)) {
            let tmp = tempfile::tempdir().unwrap();
            let exe = build_test(lib, name, SANITIZE, tmp.path());
            let args = if *name == "errors.c" {
                error_spans()
            } else {
                vec![]
            };
            let o = Command::new(&exe)
                .args(&args)
                .current_dir(tmp.path())
                .env(
                    "ASAN_OPTIONS",
                    format!("detect_leaks={}:abort_on_error=0", leaks_checked as u8),
                )
                .env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
                .output()
                .unwrap();
            let err = text(&o.stderr);
            assert!(
                o.status.success()
                    && text(&o.stdout).lines().last() == Some("ok")
                    && !err.contains("Sanitizer")
                    && !err.contains("runtime error"),
                "{}",
                show(&format!("{name} ({backend}) under sanitizers"), &o)
            );
        }
    }
}

/// Whether `cc` builds and runs a program with `flags` (a sanitizer's
/// runtime may be missing or unable to start here).
fn cc_can(flags: &[&str]) -> bool {
    let probe = tempfile::tempdir().unwrap();
    let src = probe.path().join("probe.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let exe = probe.path().join("probe");
    Command::new("cc")
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe)
            .output()
            .is_ok_and(|o| o.status.success())
}

/// The threads test under ThreadSanitizer (library and program): no data
/// races between contexts, nor between threads sharing one. The libraries
/// are compiled without OpenMP, as a user does. Skipped where the compiler
/// has no libtsan.
#[test]
fn threads_under_thread_sanitizer() {
    need_cc!();
    let flags = ["-fsanitize=thread", "-g"];
    if !cc_can(&flags) {
        eprintln!("note: cc cannot build or run with -fsanitize=thread: skipped");
        return;
    }
    let lib_flags = ["-fsanitize=thread", "-g", "-O1"];
    for backend in BACKENDS {
        let lib = build_lib(backend, &lib_flags);
        let tmp = tempfile::tempdir().unwrap();
        let exe = build_test(&lib, "threads.c", &flags, tmp.path());
        let o = Command::new(&exe)
            .current_dir(tmp.path())
            .env("TSAN_OPTIONS", "halt_on_error=1")
            .output()
            .unwrap();
        assert!(
            o.status.success()
                && text(&o.stdout).lines().last() == Some("ok")
                && !text(&o.stderr).contains("ThreadSanitizer"),
            "{}",
            show(&format!("threads.c ({backend}) under ThreadSanitizer"), &o)
        );
    }
}

// ---- the manifest ----------------------------------------------------------

/// A small JSON reader (serde_json is not a dependency of this crate).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(s: &str) -> Json {
        let b = s.as_bytes();
        let mut i = 0;
        let v = Self::value(b, &mut i);
        Self::ws(b, &mut i);
        assert_eq!(i, b.len(), "trailing text after the JSON value");
        v
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn eat(b: &[u8], i: &mut usize, c: u8) {
        Self::ws(b, i);
        assert_eq!(b.get(*i), Some(&c), "expected {:?} at byte {i}", c as char);
        *i += 1;
    }

    fn value(b: &[u8], i: &mut usize) -> Json {
        Self::ws(b, i);
        match b[*i] {
            b'{' => {
                *i += 1;
                let mut fields = vec![];
                Self::ws(b, i);
                if b[*i] == b'}' {
                    *i += 1;
                    return Json::Obj(fields);
                }
                loop {
                    Self::ws(b, i);
                    let Json::Str(k) = Self::value(b, i) else {
                        panic!("a key that is not a string at byte {i}")
                    };
                    Self::eat(b, i, b':');
                    let v = Self::value(b, i);
                    assert!(fields.iter().all(|(f, _)| *f != k), "duplicate key {k}");
                    fields.push((k, v));
                    Self::ws(b, i);
                    *i += 1;
                    match b[*i - 1] {
                        b',' => continue,
                        b'}' => return Json::Obj(fields),
                        c => panic!("unexpected {:?} in an object", c as char),
                    }
                }
            }
            b'[' => {
                *i += 1;
                let mut items = vec![];
                Self::ws(b, i);
                if b[*i] == b']' {
                    *i += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(Self::value(b, i));
                    Self::ws(b, i);
                    *i += 1;
                    match b[*i - 1] {
                        b',' => continue,
                        b']' => return Json::Arr(items),
                        c => panic!("unexpected {:?} in an array", c as char),
                    }
                }
            }
            b'"' => {
                *i += 1;
                let mut s = String::new();
                loop {
                    let c = b[*i];
                    *i += 1;
                    match c {
                        b'"' => return Json::Str(s),
                        b'\\' => {
                            let e = b[*i];
                            *i += 1;
                            match e {
                                b'n' => s.push('\n'),
                                b't' => s.push('\t'),
                                b'u' => {
                                    let h = std::str::from_utf8(&b[*i..*i + 4]).unwrap();
                                    s.push(
                                        char::from_u32(u32::from_str_radix(h, 16).unwrap())
                                            .unwrap(),
                                    );
                                    *i += 4;
                                }
                                c => s.push(c as char),
                            }
                        }
                        _ => {
                            // UTF-8 continuation bytes are copied as they come.
                            let start = *i - 1;
                            let mut end = *i;
                            while end < b.len() && (b[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            s.push_str(std::str::from_utf8(&b[start..end]).unwrap());
                            *i = end;
                        }
                    }
                }
            }
            b't' if b[*i..].starts_with(b"true") => {
                *i += 4;
                Json::Bool(true)
            }
            b'f' if b[*i..].starts_with(b"false") => {
                *i += 5;
                Json::Bool(false)
            }
            b'n' if b[*i..].starts_with(b"null") => {
                *i += 4;
                Json::Null
            }
            _ => {
                let start = *i;
                while *i < b.len() && (b[*i].is_ascii_digit() || b"+-.eE".contains(&b[*i])) {
                    *i += 1;
                }
                let t = std::str::from_utf8(&b[start..*i]).unwrap();
                Json::Num(
                    t.parse()
                        .unwrap_or_else(|_| panic!("bad number {t:?} at {start}")),
                )
            }
        }
    }

    fn get(&self, k: &str) -> &Json {
        match self {
            Json::Obj(fs) => fs
                .iter()
                .find(|(f, _)| f == k)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {k:?} in {self:?}")),
            _ => panic!("{self:?} is not an object (looking for {k:?})"),
        }
    }

    fn has(&self, k: &str) -> bool {
        matches!(self, Json::Obj(fs) if fs.iter().any(|(f, _)| f == k))
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(fs) => fs.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("{self:?} is not an object"),
        }
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("{self:?} is not a string"),
        }
    }

    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("{self:?} is not an array"),
        }
    }
}

fn is_prim(t: &str) -> bool {
    matches!(
        t,
        "i8" | "i16"
            | "i32"
            | "i64"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "f16"
            | "f32"
            | "f64"
            | "bool"
    )
}

/// Every C function named in the manifest is declared in the header.
fn declared(header: &str, f: &str) -> bool {
    header.contains(&format!(" {f}(")) || header.contains(&format!("*{f}("))
}

/// The manifest NAME.json: entry points with their C functions, inputs
/// and outputs; types with their kinds, C types and operations, which the
/// header declares; record fields and sum variants in Futhark's order.
#[test]
fn manifest() {
    for backend in BACKENDS {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("capi.fut"), PROGRAM).unwrap();
        run(
            Command::new(env!("CARGO_BIN_EXE_parad"))
                .args([backend, "--library", "-o", "capi", "capi.fut"])
                .current_dir(tmp.path()),
            "parad --library",
        );
        let header = std::fs::read_to_string(tmp.path().join("capi.h")).unwrap();
        let m = Json::parse(&std::fs::read_to_string(tmp.path().join("capi.json")).unwrap());
        assert_eq!(m.get("backend").str(), backend);
        assert!(m.has("version"));
        let eps = m.get("entry_points");
        let types = m.get("types");

        // Every entry point of the program, and nothing else.
        let mut names: Vec<&str> = PROGRAM
            .lines()
            .filter_map(|l| l.strip_prefix("entry "))
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        let mut got = eps.keys();
        names.sort();
        got.sort();
        assert_eq!(got, names);

        for name in eps.keys() {
            let e = eps.get(name);
            let cfun = e.get("cfun").str();
            assert_eq!(cfun, format!("futhark_entry_{name}"));
            assert!(declared(&header, cfun), "{cfun} not in the header");
            assert!(e.get("tuning_params").arr().is_empty());
            let attrs = e.get("attributes").arr();
            let out = e.get("output");
            // Only `upd` consumes its input and has an attribute.
            let upd = name == "upd";
            assert_eq!(out.get("unique"), &Json::Bool(upd), "{name}");
            for i in e.get("inputs").arr() {
                assert_eq!(i.get("unique"), &Json::Bool(upd), "{name}");
            }
            if upd {
                assert_eq!(attrs, [Json::Str("consumer".into())]);
            } else {
                assert!(attrs.is_empty(), "{name}: {attrs:?}");
            }
            // Every non-scalar type an entry point mentions is in `types`.
            let mut tys = vec![out.get("type").str()];
            for i in e.get("inputs").arr() {
                assert!(
                    i.has("name") && i.has("type") && i.has("unique"),
                    "{name}: {i:?}"
                );
                tys.push(i.get("type").str());
            }
            for t in tys {
                assert!(is_prim(t) || types.has(t), "{name}: type {t} not in types");
            }
        }

        // Some entry points in full.
        let inputs = |name: &str| -> Vec<(String, String)> {
            eps.get(name)
                .get("inputs")
                .arr()
                .iter()
                .map(|i| {
                    (
                        i.get("name").str().to_owned(),
                        i.get("type").str().to_owned(),
                    )
                })
                .collect()
        };
        let out = |name: &str| eps.get(name).get("output").get("type").str().to_owned();
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(inputs("scale"), [pair("a", "f64"), pair("b", "f64")]);
        assert_eq!(out("scale"), "f64");
        assert_eq!(inputs("inc3"), [pair("x", "[][][]i64")]);
        assert_eq!(out("inc3"), "[][][]i64");
        assert_eq!(inputs("mkobs"), [pair("ws", "[]f32"), pair("ls", "[]i32")]);
        assert_eq!(out("mkobs"), "obs");
        assert_eq!(out("pair"), "(i32, bool)");
        assert_eq!(out("pts2"), "[][]pt");
        assert_eq!(out("tups"), "[](i32, f32)");
        assert_eq!(inputs("ctr_total"), [pair("cs", "[]ctr")]);
        assert_eq!(out("half_f16"), "f16");

        // Every type: a C type the header declares, and its operations.
        for tname in types.keys() {
            let t = types.get(tname);
            let ctype = t.get("ctype").str();
            let sname = ctype
                .strip_prefix("struct ")
                .and_then(|s| s.strip_suffix(" *"))
                .unwrap_or_else(|| panic!("{tname}: ctype {ctype}"));
            assert!(
                header.contains(&format!("struct {sname};")),
                "{sname} not declared"
            );
            let ops = t.get("ops");
            let want: &[&str] = match t.get("kind").str() {
                "array" => {
                    let rank = tname.matches("[]").count();
                    assert_eq!(t.get("rank"), &Json::Num(rank as f64), "{tname}");
                    assert_eq!(t.get("elemtype").str(), tname.trim_start_matches("[]"));
                    &[
                        "free",
                        "shape",
                        "values",
                        "new",
                        "index",
                        "new_raw",
                        "values_raw",
                    ]
                }
                "opaque" => &["free", "store", "restore"],
                k => panic!("{tname}: kind {k}"),
            };
            for op in want {
                let f = ops.get(op).str();
                assert!(
                    declared(&header, f),
                    "{tname}: {op} = {f} not in the header"
                );
            }
            for key in ["record", "sum", "record_array", "opaque_array"] {
                if !t.has(key) {
                    continue;
                }
                let part = t.get(key);
                for op in ["new", "variant", "zip", "index", "shape", "set"] {
                    if part.has(op) {
                        let f = part.get(op).str();
                        assert!(declared(&header, f), "{tname}: {key}.{op} = {f}");
                    }
                }
                if part.has("fields") {
                    for f in part.get("fields").arr() {
                        let p = f.get("project").str();
                        assert!(declared(&header, p), "{tname}: project {p}");
                        let ft = f.get("type").str();
                        assert!(
                            is_prim(ft) || types.has(ft),
                            "{tname}: field type {ft} not in types"
                        );
                    }
                }
                if part.has("variants") {
                    for v in part.get("variants").arr() {
                        for op in ["construct", "destruct"] {
                            let f = v.get(op).str();
                            assert!(declared(&header, f), "{tname}: {op} {f}");
                        }
                    }
                }
            }
        }

        // Kinds and the order of fields and variants.
        let fields = |tname: &str, key: &str| -> Vec<(String, String)> {
            types
                .get(tname)
                .get(key)
                .get("fields")
                .arr()
                .iter()
                .map(|f| {
                    (
                        f.get("name").str().to_owned(),
                        f.get("type").str().to_owned(),
                    )
                })
                .collect()
        };
        assert_eq!(fields("pt", "record"), [pair("x", "f64"), pair("y", "f64")]);
        assert_eq!(
            fields("order", "record"),
            [pair("a10", "i32"), pair("a2", "i32"), pair("b", "i32")]
        );
        assert_eq!(
            fields("obs", "record"),
            [
                pair("count", "i64"),
                pair("labels", "[]i32"),
                pair("weights", "[]f32")
            ]
        );
        assert_eq!(
            fields("(i32, bool)", "record"),
            [pair("0", "i32"), pair("1", "bool")]
        );
        let eleven = "(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)";
        let names: Vec<String> = fields(eleven, "record").into_iter().map(|f| f.0).collect();
        assert_eq!(names, (0..11).map(|i| i.to_string()).collect::<Vec<_>>());
        assert_eq!(
            fields("[][]pt", "record_array"),
            [pair("x", "[][]f64"), pair("y", "[][]f64")]
        );
        assert_eq!(
            fields("[](i32, f32)", "record_array"),
            [pair("0", "[]i32"), pair("1", "[]f32")]
        );
        let ra = types.get("[][]pt").get("record_array");
        assert_eq!(ra.get("rank"), &Json::Num(2.0));
        assert_eq!(ra.get("elemtype").str(), "pt");
        let variants = |tname: &str| -> Vec<(String, Vec<String>)> {
            types
                .get(tname)
                .get("sum")
                .get("variants")
                .arr()
                .iter()
                .map(|v| {
                    (
                        v.get("name").str().to_owned(),
                        v.get("payload")
                            .arr()
                            .iter()
                            .map(|p| p.str().to_owned())
                            .collect(),
                    )
                })
                .collect()
        };
        let s = |x: &str| x.to_owned();
        assert_eq!(
            variants("shape"),
            [
                (s("circle"), vec![s("f64")]),
                (s("empty"), vec![]),
                (s("rect"), vec![s("f64"), s("f64")])
            ]
        );
        assert_eq!(
            variants("opt"),
            [(s("none"), vec![]), (s("some"), vec![s("[]i32")])]
        );
        // The abstract type: an opaque with no structure; arrays of it.
        let ctr = types.get("ctr");
        assert_eq!(ctr.get("kind").str(), "opaque");
        for key in ["record", "sum", "record_array", "opaque_array"] {
            assert!(!ctr.has(key), "ctr has {key}");
        }
        for (tname, rank) in [("[]ctr", 1.0), ("[][]ctr", 2.0)] {
            let oa = types.get(tname).get("opaque_array");
            assert_eq!(oa.get("rank"), &Json::Num(rank));
            assert_eq!(oa.get("elemtype").str(), "ctr");
            for op in ["index", "shape", "new", "set"] {
                assert!(oa.has(op), "{tname} has no {op}");
            }
        }
        // Primitive array types in full.
        let a = types.get("[]f16");
        assert_eq!(a.get("ctype").str(), "struct futhark_f16_1d *");
        assert_eq!(a.get("ops").get("new").str(), "futhark_new_f16_1d");
        assert_eq!(a.get("ops").get("values").str(), "futhark_values_f16_1d");
        assert_eq!(a.get("ops").get("index").str(), "futhark_index_f16_1d");
        assert!(header.contains(
            "struct futhark_f16_1d *futhark_new_f16_1d(struct futhark_context *ctx, const uint16_t *data, int64_t dim0);"
        ));
    }
}

/// The JSON reader on its own.
#[test]
fn json_reader() {
    let j = Json::parse(
        r#" {"a": [1, -2.5e1, true, false, null], "b\"c": {"d": "\u00e9x"}, "e": []} "#,
    );
    assert_eq!(
        j.get("a"),
        &Json::Arr(vec![
            Json::Num(1.0),
            Json::Num(-25.0),
            Json::Bool(true),
            Json::Bool(false),
            Json::Null
        ])
    );
    assert_eq!(j.get("b\"c").get("d").str(), "éx");
    assert!(j.get("e").arr().is_empty());
}
