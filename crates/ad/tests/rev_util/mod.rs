//! Helpers for the reverse-mode tests: programs with one `vjp` node built
//! with the IR builder, run by the interpreter, and central finite
//! differences.

#![allow(dead_code)]

use parad_base::{FloatType, IntType, PrimType};
use parad_core::*;
use parad_values::{ArrayData, ArrayValue, Scalar, Value};

pub const F64T: PrimType = PrimType::Float(FloatType::F64);
pub const F32T: PrimType = PrimType::Float(FloatType::F32);
pub const I64T: PrimType = PrimType::Int(IntType::I64);

/// `[]…[]elem` with `rank` unknown dimensions.
pub fn arr(elem: PrimType, rank: usize) -> Type {
    Type::array(elem, vec![Dim::Ext; rank])
}

pub fn f64t() -> Type {
    Type::Prim(F64T)
}

pub type Body = dyn Fn(&mut Builder, &[VName]) -> Vec<Operand>;

/// `main inputs… = f inputs…`.
pub fn primal_program(params: &[Type], f: &Body) -> Program {
    let mut pb = ProgramBuilder::new();
    let ps: Vec<Param> = params.iter().map(|t| pb.param("x", t.clone())).collect();
    let names: Vec<VName> = ps.iter().map(|p| p.name).collect();
    let mut tmp = Builder::new(&mut pb.ctx);
    let lam = tmp.lambda(params.to_vec(), |b, p| f(b, p));
    let ret: Vec<Type> = lam.ret.iter().map(|t| t.erase_dims()).collect();
    let fun = pb.function("main", ps, ret, |b| {
        // Inline the lambda's body with its parameters bound to the inputs.
        for (p, &v) in lam.params.iter().zip(&names) {
            b.let_pat(vec![p.clone()], Exp::Basic(BasicOp::Atom(v.into())));
        }
        for s in lam.body.stms.clone() {
            b.add_stm(s);
        }
        lam.body.result.clone()
    });
    pb.entry("main", fun);
    pb.finish()
}

/// `main inputs… seeds… = vjp f inputs seeds` (results then adjoints).
pub fn vjp_program(params: &[Type], f: &Body) -> Program {
    let mut pb = ProgramBuilder::new();
    let mut tmp = Builder::new(&mut pb.ctx);
    let mut lam = tmp.lambda(params.to_vec(), |b, p| f(b, p));
    let ret: Vec<Type> = lam.ret.iter().map(|t| t.erase_dims()).collect();
    lam.ret = ret.clone();
    let ins: Vec<Param> = params.iter().map(|t| pb.param("x", t.clone())).collect();
    let seeds: Vec<Param> = ret.iter().map(|t| pb.param("seed", t.clone())).collect();
    let primals: Vec<Operand> = ins.iter().map(|p| p.name.into()).collect();
    let adjoints: Vec<Operand> = seeds.iter().map(|p| p.name.into()).collect();
    let all_ret: Vec<Type> = ret
        .iter()
        .cloned()
        .chain(params.iter().map(|t| t.erase_dims()))
        .collect();
    let fun = pb.function(
        "main",
        ins.into_iter().chain(seeds).collect(),
        all_ret,
        |b| {
            b.emit(Exp::Ad(AdOp::Vjp(Vjp {
                lam,
                primals,
                adjoints,
            })))
            .into_iter()
            .map(Operand::Var)
            .collect()
        },
    );
    pb.entry("main", fun);
    pb.finish()
}

/// Differentiates and checks the program (the driver's `differentiate`
/// pass alone, with the IR checker).
pub fn expand(p: Program) -> Program {
    let before = show(&p);
    let config = parad_driver::Config::with_passes(&[parad_driver::DIFFERENTIATE.name])
        .unwrap()
        .with_check_ir(true);
    let c = parad_driver::compile_program(p, parad_base::SourceMap::new(), &config)
        .unwrap_or_else(|e| panic!("AD failed: {e}\nprogram:\n{before}"));
    if let Some(l) = c.left_out.first() {
        panic!("AD failed: {}\nprogram:\n{before}", l.reason);
    }
    c.program
}

pub fn show(p: &Program) -> String {
    p.funs
        .iter()
        .map(|f| format!("{f}"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn run(p: &Program, args: Vec<Value>) -> Vec<Value> {
    parad_interp::run(p, "main", args).unwrap_or_else(|e| panic!("run failed: {e:?}\n{}", show(p)))
}

/// Results of `vjp f inputs seeds` (primal results, then adjoints).
pub fn vjp(params: &[Type], f: &Body, inputs: Vec<Value>, seeds: Vec<Value>) -> Vec<Value> {
    let p = expand(vjp_program(params, f));
    run(&p, inputs.into_iter().chain(seeds).collect())
}

/// Only the adjoints of the inputs.
pub fn grad(params: &[Type], f: &Body, inputs: Vec<Value>, seeds: Vec<Value>) -> Vec<Value> {
    let nres = seeds.len();
    let mut r = vjp(params, f, inputs, seeds);
    r.drain(..nres);
    r
}

// ---- values ----

pub fn f64v(x: f64) -> Value {
    Value::Scalar(Scalar::F64(x))
}
pub fn f32v(x: f32) -> Value {
    Value::Scalar(Scalar::F32(x))
}
pub fn i64v(x: i64) -> Value {
    Value::Scalar(Scalar::I64(x))
}
pub fn f64s(xs: &[f64]) -> Value {
    Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::F64(xs.to_vec()),
    })
}
pub fn f32s(xs: &[f32]) -> Value {
    Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::F32(xs.to_vec()),
    })
}
pub fn i64s(xs: &[i64]) -> Value {
    Value::Array(ArrayValue {
        shape: vec![xs.len()],
        data: ArrayData::I64(xs.to_vec()),
    })
}
pub fn f64m(rows: usize, cols: usize, xs: &[f64]) -> Value {
    assert_eq!(rows * cols, xs.len());
    Value::Array(ArrayValue {
        shape: vec![rows, cols],
        data: ArrayData::F64(xs.to_vec()),
    })
}

/// The float elements of a value, as f64.
pub fn floats(v: &Value) -> Vec<f64> {
    match v {
        Value::Scalar(Scalar::F64(x)) => vec![*x],
        Value::Scalar(Scalar::F32(x)) => vec![*x as f64],
        Value::Array(a) => match &a.data {
            ArrayData::F64(d) => d.clone(),
            ArrayData::F32(d) => d.iter().map(|&x| x as f64).collect(),
            _ => vec![],
        },
        _ => vec![],
    }
}

fn with_floats(v: &Value, xs: &[f64]) -> Value {
    match v {
        Value::Scalar(Scalar::F64(_)) => f64v(xs[0]),
        Value::Scalar(Scalar::F32(_)) => f32v(xs[0] as f32),
        Value::Array(a) => Value::Array(ArrayValue {
            shape: a.shape.clone(),
            data: match &a.data {
                ArrayData::F64(_) => ArrayData::F64(xs.to_vec()),
                ArrayData::F32(_) => ArrayData::F32(xs.iter().map(|&x| x as f32).collect()),
                d => d.clone(),
            },
        }),
        v => v.clone(),
    }
}

pub fn assert_close(actual: &[f64], expected: &[f64], tol: f64, what: &str) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "{what}: lengths differ: {actual:?} vs {expected:?}"
    );
    for (k, (a, e)) in actual.iter().zip(expected).enumerate() {
        let ok = (a - e).abs() <= tol * (1.0 + e.abs()) || (a.is_nan() && e.is_nan());
        assert!(
            ok,
            "{what}[{k}]: got {a}, expected {e}\nactual {actual:?}\nexpected {expected:?}"
        );
    }
}

/// Checks the gradient from `vjp` against central finite differences of
/// `⟨seeds, f(x)⟩` with respect to every float input element.
pub fn check_fd(params: &[Type], f: &Body, inputs: Vec<Value>, seeds: Vec<Value>, tol: f64) {
    let g = grad(params, f, inputs.clone(), seeds.clone());
    let prim = expand(primal_program(params, f));
    let dot = |outs: &[Value]| -> f64 {
        outs.iter()
            .zip(&seeds)
            .map(|(o, s)| {
                floats(o)
                    .iter()
                    .zip(floats(s))
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
            })
            .sum()
    };
    for (k, inp) in inputs.iter().enumerate() {
        let xs = floats(inp);
        let mut fd = vec![];
        for j in 0..xs.len() {
            let h = 1e-6 * (1.0 + xs[j].abs());
            let at = |d: f64| {
                let mut ys = xs.clone();
                ys[j] += d;
                let mut args = inputs.clone();
                args[k] = with_floats(inp, &ys);
                dot(&run(&prim, args))
            };
            fd.push((at(h) - at(-h)) / (2.0 * h));
        }
        assert_close(&floats(&g[k]), &fd, tol, &format!("adjoint of input {k}"));
    }
}
