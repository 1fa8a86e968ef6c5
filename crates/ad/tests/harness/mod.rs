//! Shared harness for the AD tests (forward and reverse mode).
//!
//! A test function is a [`Fun`]: the shapes of its `f64` parameters and a
//! generator that emits its body with a [`Builder`] (called once per copy
//! of the function, so every copy has fresh names). From it the harness
//! builds programs whose entries wrap the function in AD nodes:
//!
//! - `f(xs…) -> ys…`: the function itself;
//! - `f_jvp(xs…, ẋs…) -> (ys…, ẏs…)`: `jvp` of the function;
//! - `f_vjp(xs…, ȳs…) -> (ys…, x̄s…)`: `vjp` of the function.
//!
//! API:
//! - [`Fun::new`]`(shapes, body)`, [`Fun::positive`] (inputs in `[0.5, 2]`
//!   instead of `[-1, 1]`, for `log`, `sqrt`, …);
//! - [`program`]`(&fun, Modes { jvp, vjp })`: the program, not yet
//!   differentiated; [`differentiated`]: the same after the driver's
//!   `differentiate` pass and the IR checker ([`expand`]; panics with the
//!   printed program when either fails);
//! - [`run`]`(&prog, entry, args)`: the interpreter, panicking on errors;
//! - [`jvp_at`]`(&fun, xs, ẋs) -> (ys, ẏs)`, [`vjp_at`]`(&fun, xs, ȳs) -> (ys, x̄s)`;
//! - [`check_jvp_fd`]`(&fun, seed, trials)`: `jvp` against central finite
//!   differences `(f(x + hẋ) - f(x - hẋ)) / 2h` on random inputs and
//!   directions, and the primal results against `f`;
//! - [`check_dot`]`(&fun, seed, trials)`: `⟨ȳ, J ẋ⟩ = ⟨Jᵀ ȳ, ẋ⟩` between
//!   `jvp` and `vjp` on random `x`, `ẋ`, `ȳ`;
//! - values: [`scalar`], [`array`], [`flat`] (all elements as `f64`),
//!   [`assert_close`];
//! - Futhark source: [`compile_source`] (the driver's front end, then
//!   differentiate and check, as [`ad_config`] says) for tests written
//!   with `jvp`/`vjp` in the language.
#![allow(dead_code)]

use parad_core::types::F64;
use parad_core::*;
use parad_values::{ArrayData, ArrayValue, Scalar, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

type Gen = dyn Fn(&mut Builder, &[VName]) -> Vec<Operand>;

/// A function of `f64` scalars and arrays, given by a body generator.
pub struct Fun {
    pub shapes: Vec<Vec<usize>>,
    pub body: Box<Gen>,
    /// Range of random inputs.
    pub lo: f64,
    pub hi: f64,
}

impl Fun {
    pub fn new(
        shapes: &[&[usize]],
        body: impl Fn(&mut Builder, &[VName]) -> Vec<Operand> + 'static,
    ) -> Fun {
        Fun {
            shapes: shapes.iter().map(|s| s.to_vec()).collect(),
            body: Box::new(body),
            lo: -1.0,
            hi: 1.0,
        }
    }

    /// Random inputs in `[0.5, 2]`.
    pub fn positive(mut self) -> Fun {
        self.lo = 0.5;
        self.hi = 2.0;
        self
    }

    fn param_types(&self) -> Vec<Type> {
        self.shapes
            .iter()
            .map(|s| {
                let dims = s.iter().map(|&n| Dim::Const(n as i64)).collect();
                Type::array(
                    parad_base::PrimType::Float(parad_base::FloatType::F64),
                    dims,
                )
            })
            .collect()
    }

    /// The function as a lambda built in `b`.
    pub fn lambda(&self, b: &mut Builder) -> Lambda {
        let mut lam = b.lambda(self.param_types(), |b, ps| (self.body)(b, ps));
        lam.ret = lam.ret.iter().map(|t| t.erase_dims()).collect();
        lam
    }
}

#[derive(Clone, Copy, Default)]
pub struct Modes {
    pub jvp: bool,
    pub vjp: bool,
}

/// A program with entries `f`, and `f_jvp`/`f_vjp` as `modes` asks.
pub fn program(fun: &Fun, modes: Modes) -> Program {
    let mut pb = ProgramBuilder::new();
    let tys = fun.param_types();
    // The result types, from a throw-away copy of the function.
    let ret: Vec<Type> = {
        let mut b = Builder::new(&mut pb.ctx);
        fun.lambda(&mut b).ret
    };
    let xs: Vec<Param> = tys.iter().map(|t| pb.param("x", t.clone())).collect();
    let f = pb.function("f", xs.clone(), ret.clone(), |b| {
        let names: Vec<VName> = xs.iter().map(|p| p.name).collect();
        (fun.body)(b, &names)
    });
    pb.entry("f", f);
    if modes.jvp {
        let xs: Vec<Param> = tys.iter().map(|t| pb.param("x", t.clone())).collect();
        let dxs: Vec<Param> = tys.iter().map(|t| pb.param("dx", t.clone())).collect();
        let all: Vec<Param> = xs.iter().chain(&dxs).cloned().collect();
        let rets = ret.iter().chain(&ret).cloned().collect();
        let g = pb.function("f_jvp", all, rets, |b| {
            let lam = fun.lambda(b);
            let exp = Exp::Ad(AdOp::Jvp(Jvp {
                lam,
                primals: xs.iter().map(|p| p.name.into()).collect(),
                tangents: dxs.iter().map(|p| p.name.into()).collect(),
            }));
            b.emit(exp).into_iter().map(Operand::from).collect()
        });
        pb.entry("f_jvp", g);
    }
    if modes.vjp {
        let xs: Vec<Param> = tys.iter().map(|t| pb.param("x", t.clone())).collect();
        let ybs: Vec<Param> = ret.iter().map(|t| pb.param("ybar", t.clone())).collect();
        let all: Vec<Param> = xs.iter().chain(&ybs).cloned().collect();
        let rets = ret.iter().chain(&tys).cloned().collect();
        let g = pb.function("f_vjp", all, rets, |b| {
            let lam = fun.lambda(b);
            let exp = Exp::Ad(AdOp::Vjp(Vjp {
                lam,
                primals: xs.iter().map(|p| p.name.into()).collect(),
                adjoints: ybs.iter().map(|p| p.name.into()).collect(),
            }));
            b.emit(exp).into_iter().map(Operand::from).collect()
        });
        pb.entry("f_vjp", g);
    }
    let p = pb.finish();
    check_program(&p).unwrap_or_else(|e| panic!("test program is ill-formed: {e}\n{p}"));
    p
}

/// The driver's pipeline for these tests: AD alone (no simplification,
/// so that tests see what AD itself produces), with the IR checked before
/// and after.
pub fn ad_config() -> parad_driver::Config {
    parad_driver::Config::with_passes(&[parad_driver::DIFFERENTIATE.name])
        .unwrap()
        .with_check_ir(true)
}

/// The program of a compilation in which no entry point was left out.
fn whole(c: parad_driver::Compiled, before: &str) -> Program {
    if let Some(l) = c.left_out.first() {
        let why = parad_driver::render(&l.reason, &c.sources);
        panic!("AD failed: {why}program:\n{before}");
    }
    c.program
}

/// `prog` after AD expansion, checked.
pub fn expand(prog: Program) -> Program {
    let before = prog.to_string();
    let c = parad_driver::compile_program(prog, parad_base::SourceMap::new(), &ad_config())
        .unwrap_or_else(|e| panic!("AD failed: {e}\nprogram:\n{before}"));
    whole(c, &before)
}

/// [`program`] then [`expand`].
pub fn differentiated(fun: &Fun, modes: Modes) -> Program {
    expand(program(fun, modes))
}

pub fn run(prog: &Program, entry: &str, args: Vec<Value>) -> Vec<Value> {
    parad_interp::run(prog, entry, args)
        .unwrap_or_else(|e| panic!("running {entry} failed: {}\n{prog}", e.message))
}

pub fn scalar(x: f64) -> Value {
    Value::Scalar(Scalar::F64(x))
}

pub fn array(shape: &[usize], xs: &[f64]) -> Value {
    assert_eq!(shape.iter().product::<usize>(), xs.len());
    Value::Array(ArrayValue {
        shape: shape.to_vec(),
        data: ArrayData::F64(xs.to_vec()),
    })
}

/// A value of the given shape (a scalar for an empty shape).
pub fn value(shape: &[usize], xs: &[f64]) -> Value {
    if shape.is_empty() {
        scalar(xs[0])
    } else {
        array(shape, xs)
    }
}

/// All elements of an `f64` (or integer) value, in row-major order.
pub fn flat(v: &Value) -> Vec<f64> {
    match v {
        Value::Scalar(Scalar::F64(x)) => vec![*x],
        Value::Scalar(Scalar::I64(x)) => vec![*x as f64],
        Value::Scalar(Scalar::F32(x)) => vec![*x as f64],
        Value::Array(a) => match &a.data {
            ArrayData::F64(xs) => xs.clone(),
            ArrayData::F32(xs) => xs.iter().map(|&x| x as f64).collect(),
            ArrayData::I64(xs) => xs.iter().map(|&x| x as f64).collect(),
            d => panic!("flat: unexpected array data {d:?}"),
        },
        v => panic!("flat: unexpected value {v:?}"),
    }
}

/// Elementwise `|a - e| <= tol·(1 + |e|)`.
pub fn assert_close(actual: &[f64], expected: &[f64], tol: f64, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= tol * (1.0 + e.abs()) || (a.is_nan() && e.is_nan()),
            "{what}: element {i} is {a}, expected {e}\nactual {actual:?}\nexpected {expected:?}"
        );
    }
}

fn random_values(rng: &mut StdRng, shapes: &[Vec<usize>], lo: f64, hi: f64) -> Vec<Vec<f64>> {
    shapes
        .iter()
        .map(|s| {
            (0..s.iter().product::<usize>())
                .map(|_| rng.gen_range(lo..hi))
                .collect()
        })
        .collect()
}

fn to_values(shapes: &[Vec<usize>], data: &[Vec<f64>]) -> Vec<Value> {
    shapes.iter().zip(data).map(|(s, d)| value(s, d)).collect()
}

/// Runs `f_jvp` of `fun` at `xs` in direction `dxs`.
pub fn jvp_at(fun: &Fun, xs: Vec<Value>, dxs: Vec<Value>) -> (Vec<Value>, Vec<Value>) {
    let p = differentiated(
        fun,
        Modes {
            jvp: true,
            vjp: false,
        },
    );
    let mut r = run(&p, "f_jvp", xs.into_iter().chain(dxs).collect());
    let t = r.split_off(r.len() / 2);
    (r, t)
}

/// Runs `f_vjp` of `fun` at `xs` with result adjoints `ybars`.
pub fn vjp_at(fun: &Fun, xs: Vec<Value>, ybars: Vec<Value>) -> (Vec<Value>, Vec<Value>) {
    let p = differentiated(
        fun,
        Modes {
            jvp: false,
            vjp: true,
        },
    );
    let mut r = run(&p, "f_vjp", xs.into_iter().chain(ybars).collect());
    let xb = r.split_off(r.len() - fun.shapes.len());
    (r, xb)
}

/// Checks `jvp` against central finite differences on `trials` random
/// points and directions.
pub fn check_jvp_fd(fun: &Fun, seed: u64, trials: usize) {
    check_jvp_fd_tol(fun, seed, trials, 1e-5)
}

pub fn check_jvp_fd_tol(fun: &Fun, seed: u64, trials: usize, tol: f64) {
    let p = differentiated(
        fun,
        Modes {
            jvp: true,
            vjp: false,
        },
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let h = 1e-6;
    for _ in 0..trials {
        let xs = random_values(&mut rng, &fun.shapes, fun.lo, fun.hi);
        let dxs = random_values(&mut rng, &fun.shapes, -1.0, 1.0);
        let args: Vec<Value> = to_values(&fun.shapes, &xs)
            .into_iter()
            .chain(to_values(&fun.shapes, &dxs))
            .collect();
        let mut out = run(&p, "f_jvp", args);
        let tans = out.split_off(out.len() / 2);
        let ys = run(&p, "f", to_values(&fun.shapes, &xs));
        for (a, e) in out.iter().zip(&ys) {
            assert_close(&flat(a), &flat(e), 1e-12, "jvp primal result");
        }
        let shifted = |s: f64| -> Vec<Value> {
            let v: Vec<Vec<f64>> = xs
                .iter()
                .zip(&dxs)
                .map(|(x, d)| x.iter().zip(d).map(|(x, d)| x + s * d).collect())
                .collect();
            run(&p, "f", to_values(&fun.shapes, &v))
        };
        let (plus, minus) = (shifted(h), shifted(-h));
        for (k, t) in tans.iter().enumerate() {
            let fd: Vec<f64> = flat(&plus[k])
                .iter()
                .zip(flat(&minus[k]))
                .map(|(a, b)| (a - b) / (2.0 * h))
                .collect();
            assert_close(&flat(t), &fd, tol, &format!("tangent of result {k}"));
        }
    }
}

fn dot(a: &[Value], b: &[Value]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| flat(x).iter().zip(flat(y)).map(|(p, q)| p * q).sum::<f64>())
        .sum()
}

/// Checks `⟨ȳ, J ẋ⟩ = ⟨Jᵀ ȳ, ẋ⟩` between `jvp` and `vjp` of `fun`.
pub fn check_dot(fun: &Fun, seed: u64, trials: usize) {
    let p = differentiated(
        fun,
        Modes {
            jvp: true,
            vjp: true,
        },
    );
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..trials {
        let xs = to_values(
            &fun.shapes,
            &random_values(&mut rng, &fun.shapes, fun.lo, fun.hi),
        );
        let dxs = to_values(
            &fun.shapes,
            &random_values(&mut rng, &fun.shapes, -1.0, 1.0),
        );
        let mut out = run(&p, "f_jvp", xs.iter().cloned().chain(dxs.clone()).collect());
        let tans = out.split_off(out.len() / 2);
        let rshapes: Vec<Vec<usize>> = out
            .iter()
            .map(|v| match v {
                Value::Array(a) => a.shape.clone(),
                Value::Scalar(_) => vec![],
            })
            .collect();
        let ybars = to_values(&rshapes, &random_values(&mut rng, &rshapes, -1.0, 1.0));
        let mut r = run(&p, "f_vjp", xs.into_iter().chain(ybars.clone()).collect());
        let xbars = r.split_off(r.len() - fun.shapes.len());
        let (l, rr) = (dot(&ybars, &tans), dot(&xbars, &dxs));
        assert_close(&[l], &[rr], 1e-9, "<ybar, J xdot> vs <J^T ybar, xdot>");
    }
}

/// Type checks, lowers and differentiates Futhark source.
pub fn compile_source(src: &str) -> Program {
    let c = parad_driver::compile_source("test.fut", src, &ad_config())
        .unwrap_or_else(|e| panic!("{e}"));
    whole(c, src)
}

/// Runs entry `entry` of Futhark source on arguments in the text format.
pub fn run_source(src: &str, entry: &str, args: &str) -> Vec<Value> {
    let p = compile_source(src);
    run(
        &p,
        entry,
        parad_values::read_values(args.as_bytes()).unwrap(),
    )
}

pub fn f64s(xs: &[f64]) -> Value {
    array(&[xs.len()], xs)
}

/// The `f64` constant `x`.
pub fn c(x: f64) -> Operand {
    Operand::f64(x)
}

pub fn f64_type() -> Type {
    F64
}
