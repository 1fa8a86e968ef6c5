//! Map-invariant code motion: invariant work leaves the lambda, the
//! program's results and errors stay the same, consumed arrays stay.

use parad_base::{FloatType, PrimType};
use parad_core::{check_program, BinOp, Dim, Exp, Operand, Program, ProgramBuilder, Type};
use parad_core::{BasicOp, Map, Reduce, Soac};
use parad_values::{read_values, Value};

const F64: PrimType = PrimType::Float(FloatType::F64);

fn vec_ty() -> Type {
    Type::array(F64, vec![Dim::Ext])
}

/// Statements directly in the body of the first map of `main`.
fn map_body_len(p: &Program, pred: impl Fn(&Exp) -> bool) -> usize {
    let f = &p.funs[0];
    let lam = f
        .body
        .stms
        .iter()
        .find_map(|s| match &s.exp {
            Exp::Soac(Soac::Map(Map { lam, .. })) => Some(lam),
            _ => None,
        })
        .expect("a map");
    lam.body.stms.iter().filter(|s| pred(&s.exp)).count()
}

fn run(p: &Program, args: &str) -> Result<Vec<Value>, String> {
    parad_interp::run(p, "main", read_values(args.as_bytes()).unwrap()).map_err(|e| e.message)
}

/// `main xs ys = map (\y -> y * (sum xs + xs[k])) ys`
fn invariant_sum(k: i64) -> Program {
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", vec_ty());
    let ys = pb.param("ys", vec_ty());
    let (xn, yn) = (xs.name, ys.name);
    let f = pb.function("main", vec![xs, ys], vec![vec_ty()], |b| {
        let r = b.map(&[yn], |b, y| {
            let s = b.reduce_op(BinOp::Add, &[xn], vec![Operand::f64(0.0)]);
            let e = b.index(xn, &[Operand::i64(k)]);
            let t = b.binop(BinOp::Add, s[0], e);
            vec![b.binop(BinOp::Mul, y[0], t).into()]
        });
        vec![r[0].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

#[test]
fn invariant_reduction_leaves_the_map() {
    let mut p = invariant_sum(1);
    check_program(&p).unwrap();
    let before = run(&p, "[1.0, 2.0] [3.0, 4.0, 5.0]").unwrap();
    parad_opt::optimise(&mut p);
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    assert_eq!(
        map_body_len(&p, |e| matches!(e, Exp::Soac(Soac::Reduce(Reduce { .. })))),
        0,
        "{p}"
    );
    assert_eq!(
        map_body_len(&p, |e| matches!(e, Exp::Basic(BasicOp::Index { .. }))),
        0,
        "{p}"
    );
    assert_eq!(run(&p, "[1.0, 2.0] [3.0, 4.0, 5.0]").unwrap(), before);
    assert_eq!(
        before,
        read_values(b"[15.0, 20.0, 25.0]").unwrap(),
        "sum 3 + xs[1] 2 = 5"
    );
}

#[test]
fn hoisted_code_runs_only_for_a_nonempty_map() {
    // xs[7] is out of bounds: an error for a non-empty map, nothing for an
    // empty one, before and after hoisting.
    let mut p = invariant_sum(7);
    parad_opt::optimise(&mut p);
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    assert_eq!(
        map_body_len(&p, |e| matches!(e, Exp::Basic(BasicOp::Index { .. }))),
        0,
        "{p}"
    );
    let empty = run(&p, "[1.0, 2.0] empty([0]f64)").unwrap();
    assert_eq!(empty, read_values(b"empty([0]f64)").unwrap());
    let err = run(&p, "[1.0, 2.0] [1.0]").unwrap_err();
    assert!(
        err.contains("out of bounds") || err.contains("index"),
        "{err}"
    );
}

#[test]
fn arrays_updated_in_place_stay_inside() {
    // map (\y -> replicate 3 0 with [0] = y) ys: every iteration needs its
    // own array.
    let mut pb = ProgramBuilder::new();
    let ys = pb.param("ys", vec_ty());
    let yn = ys.name;
    let out = Type::array(F64, vec![Dim::Ext, Dim::Const(3)]);
    let f = pb.function("main", vec![ys], vec![out], |b| {
        let r = b.map(&[yn], |b, y| {
            let a = b.replicate(Operand::i64(3), Operand::f64(0.0));
            vec![b.update(a, &[Operand::i64(0)], y[0]).into()]
        });
        vec![r[0].into()]
    });
    pb.entry("main", f);
    let mut p = pb.finish();
    parad_opt::optimise(&mut p);
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    assert_eq!(
        map_body_len(&p, |e| matches!(e, Exp::Basic(BasicOp::Replicate { .. }))),
        1,
        "{p}"
    );
    assert_eq!(
        run(&p, "[1.0, 2.0]").unwrap(),
        read_values(b"[[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]").unwrap()
    );
}
