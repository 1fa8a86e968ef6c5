//! The C backend's plumbing with hand-written C in place of the code
//! generator: results, run-time errors rendered exactly as the
//! interpreter renders them (message and location), argument errors, and
//! the fallback to the interpreter without a C compiler. Skipped (with a
//! note) when there is no C compiler.

use parad_base::{Scalar, Span};
use parad_cgen::build::{compiler_version, BuildOptions};
use parad_cgen::CProgram;
use parad_driver::{compile_source, Backend, Compiled, Config, Interpreted, Loaded, C};
use parad_values::{ArrayData, ArrayValue, Value};

const PROGRAM: &str = "\
entry sum (xs: []i64) : i64 = reduce (+) 0 xs
entry get (xs: []i64) (i: i64) : i64 = xs[i]
";

fn compiled() -> Compiled {
    compile_source("prog.fut", PROGRAM, &Config::default()).unwrap()
}

fn xs() -> Value {
    Value::Array(ArrayValue::new(vec![3], ArrayData::I64(vec![4, 5, 6])).unwrap())
}

fn i64s(x: i64) -> Value {
    Value::Scalar(Scalar::I64(x))
}

/// C implementing `sum` (entry 0) and `get` (entry 1) whose bounds
/// error has `message` at span id 0.
fn c_source(message: &str) -> String {
    let message = message.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        r#"#include <stdint.h>
#include <stdlib.h>
struct parad_value {{ void *data; int64_t *shape; }};
struct parad_ctx {{ const char *error; int64_t span; }};
int64_t parad_abi_version(void) {{ return 1; }}
struct parad_ctx *parad_ctx_new(int32_t n) {{ (void)n; return calloc(1, sizeof(struct parad_ctx)); }}
void parad_ctx_free(struct parad_ctx *c) {{ free(c); }}
void parad_ctx_reset(struct parad_ctx *c) {{ c->error = 0; c->span = -1; }}
const char *parad_ctx_error(struct parad_ctx *c) {{ return c->error; }}
int64_t parad_ctx_error_span(struct parad_ctx *c) {{ return c->span; }}
void parad_free(void *p) {{ free(p); }}
int32_t parad_call(struct parad_ctx *c, int64_t e, const struct parad_value *a, struct parad_value *r) {{
  const int64_t *xs = a[0].data;
  int64_t n = a[0].shape[0], out = 0;
  if (e == 0) {{
    for (int64_t i = 0; i < n; i++) out += xs[i];
  }} else {{
    int64_t i = *(const int64_t *)a[1].data;
    if (i < 0 || i >= n) {{ c->error = "{message}"; c->span = 0; return 1; }}
    out = xs[i];
  }}
  int64_t *p = malloc(sizeof *p);
  if (!p) return 1;
  *p = out;
  r[0].data = p;
  r[0].shape = 0;
  return 0;
}}
"#
    )
}

/// The C backend on `compiled` with the hand-written C, whose error is
/// the interpreter's message at the interpreter's span.
fn load(options: &BuildOptions, message: &str, span: Span) -> Box<dyn Loaded> {
    let c = compiled();
    let entry = |n: &str| c.program.entry(n).unwrap().clone();
    let program = CProgram {
        source: c_source(message),
        entries: vec![entry("sum"), entry("get")],
        spans: vec![span],
    };
    C::new(Config::default(), Some(2))
        .load_c(c, program, options)
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn options(dir: &std::path::Path) -> Option<BuildOptions> {
    let mut o = BuildOptions::from_env();
    o.cache_dir = dir.join("c");
    if let Err(e) = compiler_version(&o.cc) {
        eprintln!("note: skipped, {e}");
        return None;
    }
    Some(o)
}

#[test]
fn results_and_errors_match_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let interp_error = parad_interp::run(&compiled().program, "get", vec![xs(), i64s(7)])
        .expect_err("index out of bounds");
    let span = interp_error.span.expect("a located error");
    let mut interp = Interpreted(compiled());
    let mut c = load(&o, &interp_error.message, span);
    assert!(c.compile_note().unwrap().starts_with("C compiled in"));

    for (entry, args) in [
        ("sum", vec![xs()]),
        ("get", vec![xs(), i64s(2)]),
        ("get", vec![xs(), i64s(7)]),
        ("get", vec![xs()]),
        ("get", vec![xs(), Value::Scalar(Scalar::I32(0))]),
        ("nope", vec![]),
    ] {
        let want = interp.call(entry, args.clone());
        let got = c.call(entry, args);
        match (want, got) {
            (Ok(w), Ok(g)) => assert_eq!(w, g, "{entry}"),
            (Err(w), Err(g)) => {
                assert_eq!(w.render(), g.render(), "{entry}");
                assert_eq!(w.is_unsupported(), g.is_unsupported());
            }
            (w, g) => panic!("{entry}: interpreter {w:?}, C {g:?}"),
        }
    }
    assert!(c.has_entry("sum") && !c.has_entry("nope"));

    // The same text again: from the cache.
    let c2 = load(&o, &interp_error.message, span);
    assert!(c2.compile_note().unwrap().starts_with("C library cached"));
}

#[test]
fn no_compiler_falls_back_to_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = BuildOptions::from_env();
    o.cc = vec!["/nonexistent/cc".into()];
    o.cache_dir = dir.path().join("c");
    let mut p = load(&o, "unused", Span::default());
    assert_eq!(p.compile_note(), None);
    assert_eq!(p.call("sum", vec![xs()]).unwrap(), [i64s(15)]);
}

#[test]
fn backend_names_and_threads() {
    let c = C::new(Config::default(), Some(3));
    assert_eq!(c.name(), "c");
    assert_eq!(c.threads(), 3);
    assert!(C::default().threads() >= 1);
}

/// Generated code counts the bytes of the arrays it holds: a call that
/// builds an array of a million `f64`s peaks at no less than its 8 MB
/// (and at most twice that: the `iota` may be an array too), and after a
/// reset a small call peaks low.
#[test]
fn peak_memory_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let src = "entry squares (n: i64) : [n]f64 = map (\\i -> f64.i64 (i * i)) (iota n)\n";
    let c = compile_source("peak.fut", src, &Config::default()).unwrap();
    let program = parad_cgen::emit::emit(&c.program).unwrap();
    let mut p = C::new(Config::default(), Some(2))
        .load_c(c, program, &o)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let n = 1_000_000u64;
    p.reset_peak_memory();
    p.call("squares", vec![i64s(n as i64)]).unwrap();
    let peak = p.peak_memory().expect("the C backend counts memory");
    assert!((8 * n..=16 * n + 4096).contains(&peak), "peak {peak}");
    p.reset_peak_memory();
    p.call("squares", vec![i64s(10)]).unwrap();
    let small = p.peak_memory().unwrap();
    assert!(small < 4096, "peak {small} after a reset");
}
