//! The simplifier removes repeats and dead code but keeps what matters:
//! results, assertions, and the program's meaning.

use parad_base::{FloatType, PrimType};
use parad_core::BasicOp;
use parad_core::{check_program, BinOp, CmpOp, Exp, Operand, ProgramBuilder, Type};
use parad_values::{read_values, Value};

const F64: PrimType = PrimType::Float(FloatType::F64);

fn count(p: &parad_core::Program, pred: impl Fn(&Exp) -> bool) -> usize {
    p.funs[0].body.stms.iter().filter(|s| pred(&s.exp)).count()
}

/// `main xs = (sum xs, assert (length xs == length xs))` written with
/// every size read three times and a dead computation.
fn program() -> parad_core::Program {
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", Type::array(F64, vec![parad_core::Dim::Ext]));
    let xs_name = xs.name;
    let f = pb.function("main", vec![xs], vec![Type::Prim(F64)], |b| {
        let n1 = b.size(xs_name, 0);
        let n2 = b.size(xs_name, 0);
        let n3 = b.size(xs_name, 0);
        let ok = b.cmp(CmpOp::Eq, n1, n2);
        b.assert(ok, "sizes differ");
        let ok2 = b.cmp(CmpOp::Eq, n1, n3);
        b.assert(ok2, "sizes differ again");
        let _dead = b.binop(BinOp::Mul, Operand::f64(2.0), Operand::f64(3.0));
        let sum = b.reduce_op(BinOp::Add, &[xs_name], vec![Operand::f64(0.0)]);
        vec![sum[0].into()]
    });
    pb.entry("main", f);
    pb.finish()
}

fn run(p: &parad_core::Program, args: &str) -> Vec<Value> {
    parad_interp::run(p, "main", read_values(args.as_bytes()).unwrap()).unwrap()
}

#[test]
fn repeated_sizes_and_assertions_and_dead_code_go() {
    let mut p = program();
    check_program(&p).unwrap();
    let before = run(&p, "[1.0, 2.0, 3.5]");
    parad_opt::simplify(&mut p);
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    assert_eq!(
        count(&p, |e| matches!(e, Exp::Basic(BasicOp::Size { .. }))),
        1,
        "{p}"
    );
    assert_eq!(
        count(&p, |e| matches!(e, Exp::Basic(BasicOp::BinOp(..)))),
        0,
        "{p}"
    );
    // Both assertions check `n == n` after CSE, which always holds.
    assert_eq!(
        count(&p, |e| matches!(e, Exp::Basic(BasicOp::Assert { .. }))),
        0,
        "{p}"
    );
    assert_eq!(run(&p, "[1.0, 2.0, 3.5]"), before);
}

#[test]
fn assertions_that_can_fail_stay() {
    let mut pb = ProgramBuilder::new();
    let x = pb.param("x", Type::Prim(F64));
    let xn = x.name;
    let f = pb.function("main", vec![x], vec![Type::Prim(F64)], |b| {
        let pos = b.cmp(CmpOp::Gt, xn, Operand::f64(0.0));
        b.assert(pos, "x must be positive");
        let again = b.cmp(CmpOp::Gt, xn, Operand::f64(0.0));
        b.assert(again, "x must be positive");
        vec![xn.into()]
    });
    pb.entry("main", f);
    let mut p = pb.finish();
    parad_opt::simplify(&mut p);
    check_program(&p).unwrap();
    assert_eq!(
        count(&p, |e| matches!(e, Exp::Basic(BasicOp::Assert { .. }))),
        1,
        "{p}"
    );
    let err = parad_interp::run(&p, "main", read_values(b"-1.0").unwrap()).unwrap_err();
    assert!(
        err.message.contains("x must be positive"),
        "{}",
        err.message
    );
}
