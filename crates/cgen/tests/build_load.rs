//! Building and loading a hand-written library that implements the
//! generated programs' ABI (`abi_fixture.c`, whose comment lists its
//! entries): the cache, compiler errors, a missing compiler, argument
//! checks, marshalling of every element type at ranks 0 to 3, and errors
//! with spans. Skipped (with a note) when there is no C compiler.

use half::f16;
use parad_base::{FileId, FloatType, IntType, PrimType, Scalar, Span};
use parad_cgen::build::{build_with, compiler_version, BuildError, BuildOptions, Built};
use parad_cgen::load::{CallError, Library};
use parad_core::{EntryPoint, EntryType, Symbol};
use parad_values::{ArrayData, ArrayValue, Value};
use std::path::Path;

const FIXTURE: &str = include_str!("abi_fixture.c");

/// The element types in the fixture's order.
fn types() -> Vec<PrimType> {
    let mut ts: Vec<PrimType> = IntType::ALL.iter().map(|&t| PrimType::Int(t)).collect();
    ts.extend([FloatType::F16, FloatType::F32, FloatType::F64].map(PrimType::Float));
    ts.push(PrimType::Bool);
    ts
}

fn ty(elem: PrimType, rank: usize) -> EntryType {
    EntryType {
        elem,
        rank,
        unique: false,
    }
}

fn entry(name: &str, params: Vec<EntryType>, results: Vec<EntryType>) -> EntryPoint {
    EntryPoint {
        name: name.to_string(),
        fun: Symbol::intern(name),
        params,
        results,
    }
}

const I64: PrimType = PrimType::Int(IntType::I64);

fn entries() -> Vec<EntryPoint> {
    let mut es = vec![
        entry("sum", vec![ty(I64, 1)], vec![ty(I64, 0)]),
        entry("fail", vec![ty(I64, 0)], vec![ty(I64, 0)]),
        entry(
            "probe",
            types().into_iter().map(|t| ty(t, 0)).collect(),
            vec![ty(I64, 1)],
        ),
        entry("threads", vec![], vec![ty(I64, 0)]),
    ];
    for t in types() {
        for r in 0..4 {
            es.push(entry(
                &format!("id_{t}_{r}"),
                vec![ty(t, r)],
                vec![ty(t, r)],
            ));
        }
    }
    es
}

fn spans() -> Vec<Span> {
    (0..3)
        .map(|i| Span::new(FileId(0), 10 * i, 10 * i + 5))
        .collect()
}

/// Options with the environment's compiler and a cache in `dir`, or
/// `None` (after a note) when there is no compiler.
fn options(dir: &Path) -> Option<BuildOptions> {
    let mut o = BuildOptions::from_env();
    o.cache_dir = dir.join("c");
    match compiler_version(&o.cc) {
        Ok(_) => Some(o),
        Err(e) => {
            eprintln!("note: skipped, {e}");
            None
        }
    }
}

fn open(threads: usize) -> Option<(tempfile::TempDir, Library)> {
    let dir = tempfile::tempdir().unwrap();
    let o = options(dir.path())?;
    let built = build_with(FIXTURE, &o).unwrap_or_else(|e| panic!("{e}"));
    let lib = Library::open(&built.library, entries(), spans(), threads).unwrap();
    Some((dir, lib))
}

fn mtime(p: &Path) -> std::time::SystemTime {
    std::fs::metadata(p).unwrap().modified().unwrap()
}

#[test]
fn second_build_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let first = build_with(FIXTURE, &o).unwrap();
    assert!(!first.cached);
    assert!(first.library.is_file());
    assert_eq!(std::fs::read_to_string(&first.source).unwrap(), FIXTURE);
    assert!(first.describe().starts_with("C compiled in"));
    let before = mtime(&first.library);
    let second = build_with(FIXTURE, &o).unwrap();
    assert!(second.cached);
    assert!(second.describe().starts_with("C library cached"));
    assert_eq!(
        (&second.library, &second.hash),
        (&first.library, &first.hash)
    );
    assert_eq!(mtime(&second.library), before);
    // Other flags, another library.
    let mut o2 = o.clone();
    o2.extra_flags.push("-DPARAD_TEST_FLAG=1".into());
    let third = build_with(FIXTURE, &o2).unwrap();
    assert!(!third.cached);
    assert_ne!(third.hash, first.hash);
}

#[test]
fn concurrent_builds_agree() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let text = format!("{FIXTURE}\n/* concurrent */\n");
    let built: Vec<Built> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4).map(|_| s.spawn(|| build_with(&text, &o))).collect();
        hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    assert!(built.iter().all(|b| b.library == built[0].library));
    let mut names: Vec<String> = std::fs::read_dir(&o.cache_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let h = &built[0].hash;
    assert_eq!(
        names,
        [format!("{h}.c"), format!("{h}.so")],
        "temporaries left"
    );
    let mut lib = Library::open(&built[0].library, entries(), spans(), 1).unwrap();
    let xs = Value::Array(ArrayValue::new(vec![3], ArrayData::I64(vec![1, 2, 3])).unwrap());
    assert_eq!(lib.call(0, &[xs]).unwrap(), [Value::Scalar(Scalar::I64(6))]);
}

#[test]
fn compiler_errors_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let Some(o) = options(dir.path()) else { return };
    let e = build_with("int f(void) { return ; ] }\n", &o).unwrap_err();
    let BuildError::Failed {
        message, source, ..
    } = &e
    else {
        panic!("expected a compiler failure, got {e}")
    };
    assert!(message.contains("error"), "{message}");
    assert!(source.is_file());
    assert!(e.to_string().contains(&source.display().to_string()));
}

#[test]
fn missing_compiler() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = BuildOptions::from_env();
    o.cc = vec!["/nonexistent".into()];
    o.cache_dir = dir.path().join("c");
    let e = build_with(FIXTURE, &o).unwrap_err();
    assert!(e.is_no_compiler(), "{e}");
    assert!(e.to_string().contains("/nonexistent"), "{e}");
}

#[test]
fn sum_and_argument_checks() {
    let Some((_dir, mut lib)) = open(1) else {
        return;
    };
    assert_eq!(lib.entry_index("sum"), Some(0));
    let xs = |v: Vec<i64>| Value::Array(ArrayValue::new(vec![v.len()], ArrayData::I64(v)).unwrap());
    assert_eq!(
        lib.call(0, &[xs(vec![1, 2, 39])]).unwrap(),
        [Value::Scalar(Scalar::I64(42))]
    );
    assert_eq!(
        lib.call(0, &[xs(vec![])]).unwrap(),
        [Value::Scalar(Scalar::I64(0))]
    );
    let err = |m: &str| CallError {
        message: m.into(),
        span: None,
    };
    assert_eq!(
        lib.call(0, &[]).unwrap_err(),
        err("entry point sum expects 1 arguments but got 0")
    );
    assert_eq!(
        lib.call(0, &[Value::Scalar(Scalar::I64(1))]).unwrap_err(),
        err("argument 1 of entry point sum has type i64 but []i64 was expected")
    );
    let f32s = Value::Array(ArrayValue::new(vec![1], ArrayData::F32(vec![1.0])).unwrap());
    assert_eq!(
        lib.call(0, &[f32s]).unwrap_err(),
        err("argument 1 of entry point sum has type [1]f32 but []i64 was expected")
    );
    assert!(lib.call(1000, &[]).is_err());
}

#[test]
fn errors_carry_spans() {
    let Some((_dir, mut lib)) = open(1) else {
        return;
    };
    let k = |k: i64| [Value::Scalar(Scalar::I64(k))];
    let msg = "index 7 out of bounds for array of shape [3]";
    for (id, span) in [
        (0, Some(spans()[0])),
        (2, Some(spans()[2])),
        (-1, None),
        (9, None),
    ] {
        assert_eq!(
            lib.call(1, &k(id)).unwrap_err(),
            CallError {
                message: msg.into(),
                span
            }
        );
    }
    // The error is cleared before the next call.
    assert_eq!(lib.call(1, &k(100)).unwrap(), k(100));
}

#[test]
fn threads_reach_the_context() {
    let Some((_dir, mut lib)) = open(3) else {
        return;
    };
    assert_eq!(lib.call(3, &[]).unwrap(), [Value::Scalar(Scalar::I64(3))]);
}

#[test]
fn scalar_encodings() {
    let Some((_dir, mut lib)) = open(1) else {
        return;
    };
    let args = [
        Scalar::I8(-5),
        Scalar::I16(-300),
        Scalar::I32(-70000),
        Scalar::I64(-(1 << 40)),
        Scalar::U8(200),
        Scalar::U16(60000),
        Scalar::U32(4_000_000_000),
        Scalar::U64(1 << 63),
        Scalar::F16(f16::from_f32(1.5)),
        Scalar::F32(2.25),
        Scalar::F64(-3.75),
        Scalar::Bool(true),
    ]
    .map(Value::Scalar);
    let expected = vec![
        -5,
        -300,
        -70000,
        -(1 << 40),
        200,
        60000,
        4_000_000_000,
        i64::MIN,
        f16::from_f32(1.5).to_bits() as i64,
        9,
        -15,
        1,
    ];
    assert_eq!(
        lib.call(2, &args).unwrap(),
        [Value::Array(
            ArrayValue::new(vec![12], ArrayData::I64(expected)).unwrap()
        )]
    );
}

/// Element `i` of a test array of type `t`.
fn sample(t: PrimType, i: usize) -> Scalar {
    let x = (i as i64) * 37 - 50;
    match t {
        PrimType::Int(IntType::I8) => Scalar::I8(x as i8),
        PrimType::Int(IntType::I16) => Scalar::I16((x * 1000) as i16),
        PrimType::Int(IntType::I32) => Scalar::I32((x * 100_000) as i32),
        PrimType::Int(IntType::I64) => Scalar::I64(x << 40),
        PrimType::Int(IntType::U8) => Scalar::U8(x as u8),
        PrimType::Int(IntType::U16) => Scalar::U16((x * 1000) as u16),
        PrimType::Int(IntType::U32) => Scalar::U32((x * 100_000) as u32),
        PrimType::Int(IntType::U64) => Scalar::U64((x << 40) as u64),
        PrimType::Float(FloatType::F16) => Scalar::F16(f16::from_f32(x as f32 * 0.25)),
        PrimType::Float(FloatType::F32) => Scalar::F32(x as f32 / 3.0),
        PrimType::Float(FloatType::F64) => Scalar::F64(x as f64 / 7.0),
        PrimType::Bool => Scalar::Bool(i.is_multiple_of(3)),
    }
}

#[test]
fn every_type_and_rank_round_trips() {
    let Some((_dir, mut lib)) = open(2) else {
        return;
    };
    for (ti, t) in types().into_iter().enumerate() {
        for rank in 0..4 {
            let index = 4 + 4 * ti + rank;
            assert_eq!(lib.entries()[index].name, format!("id_{t}_{rank}"));
            let shapes: Vec<Vec<usize>> = match rank {
                0 => vec![vec![]],
                1 => vec![vec![5], vec![0]],
                2 => vec![vec![2, 3], vec![0, 3], vec![3, 0]],
                _ => vec![vec![2, 1, 3], vec![2, 0, 4]],
            };
            for shape in shapes {
                let n: usize = shape.iter().product();
                let mut data = ArrayData::empty(t);
                for i in 0..n {
                    assert!(data.push(sample(t, i)));
                }
                let v = if rank == 0 {
                    Value::Scalar(data.get(0).unwrap())
                } else {
                    Value::Array(ArrayValue::new(shape.clone(), data).unwrap())
                };
                let out = lib.call(index, std::slice::from_ref(&v)).unwrap();
                assert_eq!(out, [v], "{t} of shape {shape:?}");
            }
        }
    }
}
