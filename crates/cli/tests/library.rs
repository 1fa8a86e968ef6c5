//! The library API (`parad::Program`): values in and out of every kind,
//! typed errors with their locations, derivatives (vjp/jvp agreement and
//! finite differences in f64), calls from several threads, and the C
//! backends against the interpreter.

use ndarray::{arr1, arr2, ArrayD, Axis, IxDyn};
use parad::{Backend, Error, Options, Program, Type, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

fn prog_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/library/prog.fut")
}

fn cache() -> PathBuf {
    // The tests' own cache, under cargo's target folder.
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("library-cache");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn options(backend: Backend) -> Options {
    Options::default()
        .backend(backend)
        .cache_dir(cache())
        .threads(2)
        .check_ir(true)
        .differentiate(["rows", "moments"])
}

/// The test program on each backend, compiled once.
fn program(backend: Backend) -> &'static Program {
    static P: [OnceLock<Program>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let k = match backend {
        Backend::Interpreter => 0,
        Backend::C => 1,
        Backend::Multicore => 2,
    };
    P[k].get_or_init(|| {
        Program::compile_file(prog_path(), options(backend))
            .unwrap_or_else(|e| panic!("{backend:?}: {e}"))
    })
}

const BACKENDS: [Backend; 3] = [Backend::Interpreter, Backend::C, Backend::Multicore];

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array::<f64>()
        .unwrap_or_else(|| panic!("not a []f64: {v}"))
        .iter()
        .copied()
        .collect()
}

#[test]
fn signatures() {
    let p = program(Backend::Interpreter);
    let rows = p.entry("rows").unwrap();
    assert_eq!(rows.signature(), "rows : [][]f64 -> []f64 -> []f64");
    assert_eq!(rows.params[0].name.as_deref(), Some("w"));
    assert!(rows.doc.as_deref().unwrap().contains("Scales each row"));
    let stats = p.entry("stats").unwrap();
    assert_eq!(stats.results().len(), 3);
    assert_eq!(
        stats.signature(),
        "stats : []f64 -> i64 -> (f64, []f64, i64)"
    );
    let energy = p.entry("energy").unwrap();
    match &energy.params()[0].ty {
        Type::Record { name, fields } => {
            assert_eq!(name, "particle");
            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["mass", "vel"]);
        }
        t => panic!("{t:?}"),
    }
    assert_eq!(
        p.entry("area").unwrap().params[0].ty,
        Type::Opaque("shape".into())
    );
    // The derivatives' entry points are not the program's.
    assert!(p.entry(&parad::vjp_name("rows")).is_none());
    assert!(p.entries().iter().all(|e| !e.name.starts_with("parad_")));
    assert_eq!(p.differentiable("moments").unwrap(), [true, false]);
}

#[test]
fn arrays_scalars_and_tuples_on_every_backend() {
    let w = arr2(&[[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]]);
    let x = arr1(&[2.0, 4.0]);
    for b in BACKENDS {
        let p = program(b);
        let r = p
            .call("rows", &[Value::from(w.clone()), Value::from(x.clone())])
            .unwrap();
        assert_eq!(f64s(&r[0]), [30.0, 4.0, 1.5], "{b:?}");
        let r = p
            .call("stats", &[Value::from(arr1(&[1.0, 2.0])), 3i64.into()])
            .unwrap();
        assert_eq!(r.len(), 3, "{b:?}");
        assert_eq!(f64::try_from(&r[0]).unwrap(), 9.0);
        assert_eq!(f64s(&r[1]), [4.0, 7.0]);
        assert_eq!(i64::try_from(&r[2]).unwrap(), 2);
    }
}

#[test]
fn every_primitive_type_round_trips() {
    use half::f16;
    for b in BACKENDS {
        let p = program(b);
        let same = |entry: &str, v: Value| {
            let r = p.call(entry, std::slice::from_ref(&v)).unwrap();
            assert_eq!(r, [v], "{b:?} {entry}");
        };
        same("id_i8", (-5i8).into());
        same("id_i16", Value::from(arr1(&[1i16, -2, 300])));
        same("id_i32", Value::from(arr2(&[[1i32, 2], [3, 4]])));
        same("id_u8", 250u8.into());
        same("id_u16", Value::from(arr1(&[65535u16])));
        same("id_u32", 4_000_000_000u32.into());
        same(
            "id_u64",
            Value::from(ArrayD::from_elem(IxDyn(&[2, 0, 3]), 7u64)),
        );
        same(
            "id_u64",
            Value::from(ArrayD::from_elem(IxDyn(&[1, 2, 1]), u64::MAX)),
        );
        same(
            "id_f16",
            Value::from(arr1(&[f16::from_f32(1.5), f16::from_f32(-0.25)])),
        );
        same("id_f32", 3.25f32.into());
        same("id_bool", Value::from(arr1(&[true, false, true])));
    }
}

#[test]
fn arrays_in_any_layout() {
    let m = arr2(&[[1i64, 2, 3], [4, 5, 6]]);
    let p = program(Backend::Multicore);
    // A transposed view (column-major) and a strided slice are read in
    // logical order.
    let t = m.t();
    let r = p.call("transpose_i64", &[Value::from(t)]).unwrap();
    let back: ArrayD<i64> = r[0].clone().try_into().unwrap();
    assert_eq!(back, m.clone().into_dyn());
    let every_other = m.slice(ndarray::s![.., ..;2]).to_owned();
    let r = p
        .call(
            "transpose_i64",
            &[Value::from(m.slice(ndarray::s![.., ..;2]))],
        )
        .unwrap();
    let back: ArrayD<i64> = r[0].clone().try_into().unwrap();
    assert_eq!(back, every_other.t().into_dyn());
    // An owned array in standard layout is moved, others copied: both
    // give the same value.
    let owned = Value::from(m.clone());
    let copied = Value::from(m.view());
    assert_eq!(owned, copied);
    let col = m.index_axis(Axis(1), 1).to_owned();
    assert_eq!(f64s(&Value::from(col.mapv(|x| x as f64))), [2.0, 5.0]);
}

#[test]
fn records_and_opaque_values() {
    for b in BACKENDS {
        let p = program(b);
        let part = p
            .call(
                "mk_particle",
                &[2.0f64.into(), Value::from(arr1(&[1.0, 2.0, 2.0]))],
            )
            .unwrap();
        let Value::Record(r) = &part[0] else {
            panic!("{b:?}: {:?}", part[0])
        };
        assert_eq!(r.type_name, "particle");
        assert_eq!(f64::try_from(r.field("mass").unwrap()).unwrap(), 2.0);
        assert_eq!(f64s(r.field("vel").unwrap()), [1.0, 2.0, 2.0]);
        let e = p.call("energy", &part).unwrap();
        assert_eq!(f64::try_from(&e[0]).unwrap(), 9.0, "{b:?}");
        // A record built by hand.
        let mut mine = r.clone();
        mine.fields[0].1 = 4.0f64.into();
        let e = p.call("energy", &[Value::Record(mine)]).unwrap();
        assert_eq!(f64::try_from(&e[0]).unwrap(), 18.0);
        // A sum type is opaque: passed back as it came.
        let c = p.call("circle", &[2.0f64.into()]).unwrap();
        assert!(matches!(&c[0], Value::Opaque(o) if o.type_name == "shape"));
        let a = p.call("area", &c).unwrap();
        assert_eq!(f64::try_from(&a[0]).unwrap(), 12.0);
        // ... and not as another type.
        let e = p.call("energy", &c).unwrap_err();
        assert!(matches!(e, Error::BadInput { .. }), "{e}");
    }
}

#[test]
fn bad_input_is_an_error() {
    let p = program(Backend::Multicore);
    let e = p.call("get", &[Value::from(arr1(&[1i64]))]).unwrap_err();
    assert!(
        matches!(&e, Error::BadInput { entry, .. } if entry == "get"),
        "{e}"
    );
    assert!(
        e.to_string().contains("1 arguments given, 2 expected"),
        "{e}"
    );
    let e = p
        .call("get", &[Value::from(arr1(&[1.0f64])), 0i64.into()])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("argument 1 (xs) must be of type []i64, not []f64"),
        "{e}"
    );
    let e = p.call("nope", &[]).unwrap_err();
    assert!(matches!(&e, Error::NoEntry(n) if n == "nope"), "{e}");
    let e = p
        .vjp(
            "get",
            &[Value::from(arr1(&[1i64])), 0i64.into()],
            &[1i64.into()],
        )
        .unwrap_err();
    assert!(e.to_string().contains("Options::differentiate"), "{e}");
}

#[test]
fn run_time_errors_have_their_location() {
    for b in BACKENDS {
        let p = program(b);
        let e = p
            .call("get", &[Value::from(arr1(&[1i64, 2])), 5i64.into()])
            .unwrap_err();
        let Error::Runtime { location, message } = &e else {
            panic!("{b:?}: {e:?}")
        };
        let at = location.as_ref().unwrap();
        assert!(at.file.ends_with("prog.fut"), "{at}");
        assert_eq!(at.line, 27, "{b:?}: {message}");
        assert!(message.contains("out of bounds"), "{message}");
        let e = p.call("checked_sqrt", &[(-1.0f64).into()]).unwrap_err();
        assert_eq!(e.location().unwrap().line, 28, "{b:?}: {e}");
        // The program still works after an error.
        let r = p.call("checked_sqrt", &[4.0f64.into()]).unwrap();
        assert_eq!(f64::try_from(&r[0]).unwrap(), 2.0);
    }
}

#[test]
fn compile_errors_are_located() {
    let o = || Options::default().backend(Backend::Interpreter);
    let e = Program::compile_source("m.fut", "entry f (x: i32) =\n  x + 1.5f32", o()).unwrap_err();
    let Error::Compile { message, location } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(location.as_ref().unwrap().line, 2, "{message}");
    assert!(
        message.starts_with("error:") && message.contains("m.fut:2:"),
        "{message}"
    );
    let e = Program::compile_file("/nonexistent/x.fut", o()).unwrap_err();
    assert!(matches!(e, Error::Read { .. }), "{e}");
    // Derivatives of what has none.
    let e = Program::compile_source(
        "n.fut",
        "entry f (x: i32) : i32 = x",
        o().differentiate(["f"]),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("no parameter to differentiate"),
        "{e}"
    );
    let e = Program::compile_source("n.fut", "entry f (x: f64) = x", o().differentiate(["g"]))
        .unwrap_err();
    assert!(matches!(&e, Error::NoEntry(g) if g == "g"), "{e}");
}

#[test]
fn without_a_c_compiler_the_c_backends_fail() {
    let o = Options::default()
        .cache_dir(cache())
        .c_compiler(["/nonexistent/cc"]);
    let e = Program::compile_source("x.fut", "entry f (x: f64) = x", o).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/cc"), "{e}");
}

/// A deterministic pseudo-random sequence in [-1, 1).
fn numbers(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn vjp_and_jvp_agree_and_match_finite_differences() {
    let (n, m) = (3, 4);
    let w = Value::array(&[n, m], numbers(1, n * m)).unwrap();
    let x = Value::array(&[m], numbers(2, m)).unwrap();
    let dw = Value::array(&[n, m], numbers(3, n * m)).unwrap();
    let dx = Value::array(&[m], numbers(4, m)).unwrap();
    let ybar = Value::array(&[n], numbers(5, n)).unwrap();
    for b in BACKENDS {
        let p = program(b);
        let args = [w.clone(), x.clone()];
        let ydot = p.jvp("rows", &args, &[dw.clone(), dx.clone()]).unwrap();
        let grads = p.vjp("rows", &args, std::slice::from_ref(&ybar)).unwrap();
        assert_eq!(grads.len(), 2);
        assert_eq!(grads[0].shape(), [n, m]);
        // <ȳ, J ẋ> = <Jᵀ ȳ, ẋ>
        let lhs = dot(&f64s(&ybar), &f64s(&ydot[0]));
        let rhs = dot(&f64s(&grads[0]), &f64s(&dw)) + dot(&f64s(&grads[1]), &f64s(&dx));
        assert!(
            (lhs - rhs).abs() < 1e-12 * lhs.abs().max(1.0),
            "{b:?}: {lhs} {rhs}"
        );
        // Central differences along (dw, dx).
        let h = 1e-6;
        let at = |t: f64| {
            let shift = |v: &Value, d: &Value| {
                let a: Vec<f64> = f64s(v)
                    .iter()
                    .zip(f64s(d))
                    .map(|(a, d)| a + t * d)
                    .collect();
                Value::array(v.shape(), a).unwrap()
            };
            let y = p.call("rows", &[shift(&w, &dw), shift(&x, &dx)]).unwrap();
            f64s(&y[0])
        };
        let (hi, lo) = (at(h), at(-h));
        for (k, yd) in f64s(&ydot[0]).iter().enumerate() {
            let fd = (hi[k] - lo[k]) / (2.0 * h);
            assert!(
                (fd - yd).abs() < 1e-6 * yd.abs().max(1.0),
                "{b:?}: {fd} {yd}"
            );
        }
    }
}

#[test]
fn derivatives_of_a_tuple_result_with_a_fixed_parameter() {
    // moments xs k = (k · Σxs, [x² + Σxs | x ← xs]), k held fixed.
    let xs = Value::from(arr1(&[1.0, 2.0, 3.0]));
    for b in BACKENDS {
        let p = program(b);
        let seeds = [1.0f64.into(), Value::from(arr1(&[1.0, 0.0, 0.0]))];
        let g = p
            .vjp("moments", &[xs.clone(), 2i64.into()], &seeds)
            .unwrap();
        // ∂/∂x_i = k·s0 + 2 x_i s1_i + Σ s1
        assert_eq!(g.len(), 1, "{b:?}");
        assert_eq!(f64s(&g[0]), [5.0, 3.0, 3.0], "{b:?}");
        let t = p
            .jvp(
                "moments",
                &[xs.clone(), 2i64.into()],
                &[Value::from(arr1(&[0.0, 1.0, 0.0]))],
            )
            .unwrap();
        assert_eq!(f64::try_from(&t[0]).unwrap(), 2.0, "{b:?}");
        assert_eq!(f64s(&t[1]), [1.0, 5.0, 1.0], "{b:?}");
        // A seed of the wrong shape is the vjp's size error.
        let bad = [1.0f64.into(), Value::from(arr1(&[1.0]))];
        let e = p
            .vjp("moments", &[xs.clone(), 2i64.into()], &bad)
            .unwrap_err();
        assert!(matches!(e, Error::Runtime { .. }), "{b:?}: {e:?}");
    }
    // An entry point with an integer result has no derivative.
    let e = Program::compile_file(
        prog_path(),
        Options::default()
            .backend(Backend::Interpreter)
            .differentiate(["stats"]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("is not differentiable"), "{e}");
}

#[test]
fn calls_from_several_threads() {
    let p = program(Backend::Multicore);
    std::thread::scope(|s| {
        for t in 0..4 {
            s.spawn(move || {
                for i in 0..20 {
                    let k = (t * 100 + i) as f64;
                    let r = p.call("checked_sqrt", &[(k * k).into()]).unwrap();
                    assert_eq!(f64::try_from(&r[0]).unwrap(), k);
                }
            });
        }
    });
}
