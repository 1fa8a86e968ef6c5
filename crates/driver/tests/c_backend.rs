//! The C backend's plumbing: results, run-time errors rendered exactly as
//! the interpreter renders them (message and location), argument errors,
//! the cache, the fallback to the interpreter without a C compiler, and
//! values of every primitive type and rank through the generated C API.
//! Skipped (with a note) when there is no C compiler.

use parad_base::{FloatType, IntType, PrimType, Scalar};
use parad_cgen::build::{compiler_version, BuildOptions};
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

/// The C backend on `compiled`, built with `options`.
fn load(options: &BuildOptions) -> Box<dyn Loaded> {
    let c = compiled();
    let program = parad_cgen::emit::emit(&c.program).unwrap();
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
    let mut interp = Interpreted(compiled());
    let mut c = load(&o);
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
    let c2 = load(&o);
    assert!(c2.compile_note().unwrap().starts_with("C library cached"));
}

#[test]
fn no_compiler_falls_back_to_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = BuildOptions::from_env();
    o.cc = vec!["/nonexistent/cc".into()];
    o.cache_dir = dir.path().join("c");
    let mut p = load(&o);
    assert_eq!(p.compile_note(), None);
    assert_eq!(p.call("sum", vec![xs()]).unwrap(), [i64s(15)]);
}

#[test]
fn backend_names_and_threads() {
    let c = C::new(Config::default(), Some(3));
    assert_eq!(c.name(), "multicore");
    assert_eq!(C::sequential(Config::default()).name(), "c");
    assert_eq!(C::sequential(Config::default()).threads(), 1);
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

/// Every primitive type at ranks 0 to 3 goes into an entry point and comes
/// back unchanged, alone and inside a tuple (an opaque value), and scalars
/// of every type pass through with their exact bits.
#[test]
fn every_type_and_rank_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let mut types: Vec<PrimType> = IntType::ALL.iter().map(|&t| PrimType::Int(t)).collect();
    types.extend([FloatType::F16, FloatType::F32, FloatType::F64].map(PrimType::Float));
    types.push(PrimType::Bool);
    let mut src = String::new();
    for t in &types {
        for r in 0..4 {
            let ty = format!("{}{t}", "[]".repeat(r));
            src.push_str(&format!(
                "entry id_{t}_{r} (x: {ty}) : {ty} = x\nentry pair_{t}_{r} (x: {ty}) (y: {ty}) : ({ty}, i32, {ty}) = (y, 7, x)\n"
            ));
        }
    }
    let c = compile_source("types.fut", &src, &Config::default()).unwrap();
    let program = parad_cgen::emit::emit(&c.program).unwrap();
    let mut p = C::new(Config::default(), Some(2))
        .load_c(c, program, &o)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let mut rng = 1u64;
    let mut next = || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        rng >> 11
    };
    for t in &types {
        for r in 0..4usize {
            let shape: Vec<usize> = (0..r)
                .map(|k| [3, 0, 2][k % 3].max(usize::from(k > 0)))
                .collect();
            let n: usize = shape.iter().product();
            let sample = |k: u64| -> Scalar {
                let text = match t {
                    PrimType::Bool => format!("{}", k % 2 == 0),
                    PrimType::Float(_) => format!("{}.5{t}", (k % 200) as i64 - 100),
                    PrimType::Int(i) if i.signed() => format!("{}{t}", (k % 200) as i64 - 100),
                    _ => format!("{}{t}", k % 200),
                };
                match parad_values::read_values(text.as_bytes()).unwrap().pop() {
                    Some(Value::Scalar(s)) => s,
                    other => panic!("{other:?}"),
                }
            };
            let value = |k: &mut dyn FnMut() -> u64| -> Value {
                if r == 0 {
                    return Value::Scalar(sample(k()));
                }
                let mut data = ArrayData::empty(*t);
                for _ in 0..n {
                    data.push(sample(k()));
                }
                Value::Array(ArrayValue::new(shape.clone(), data).unwrap())
            };
            let x = value(&mut next);
            let y = value(&mut next);
            let got = p.call(&format!("id_{t}_{r}"), vec![x.clone()]).unwrap();
            assert_eq!(got, [x.clone()], "id_{t}_{r}");
            let got = p
                .call(&format!("pair_{t}_{r}"), vec![x.clone(), y.clone()])
                .unwrap();
            assert_eq!(got, [y, i32s(7), x], "pair_{t}_{r}");
        }
    }
}

fn i32s(x: i32) -> Value {
    Value::Scalar(Scalar::I32(x))
}
