mod programs;

use parad_base::{FileId, Span};
use parad_core::types::{F32, I64};
use parad_core::*;
use programs::*;

fn all() -> Vec<Program> {
    vec![
        dot(),
        row_sums(),
        affine_scan(),
        histogram(),
        scatter(),
        squares_loop(),
        collatz(),
    ]
}

#[test]
fn builder_programs_check() {
    for p in all() {
        if let Err(e) = check_program(&p) {
            panic!("{e}\n{p}");
        }
    }
}

/// Replaces the first statement of the first function's body.
fn with_first_stm(p: &mut Program, f: impl FnOnce(&mut Stm)) {
    f(&mut p.funs[0].body.stms[0])
}

fn err(p: &Program) -> String {
    check_program(p)
        .expect_err("checker accepted a broken program")
        .to_string()
}

#[test]
fn rejects_use_before_binding() {
    let mut p = squares_loop();
    let late = p.funs[0].body.stms[1].pat[0].name;
    with_first_stm(&mut p, |s| {
        s.exp = Exp::Basic(BasicOp::Replicate {
            n: Operand::Var(late),
            value: Operand::i64(0),
        });
    });
    assert!(
        err(&p).contains(&format!("{late} is not in scope")),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_double_binding() {
    let mut p = dot();
    let first = p.funs[0].body.stms[0].pat[0].name;
    p.funs[0].body.stms[1].pat[0].name = first;
    assert!(err(&p).contains("is bound twice"), "{}", err(&p));
}

#[test]
fn rejects_variable_escaping_its_scope() {
    let mut p = dot();
    // The map lambda's parameter used in the function's result.
    let Exp::Soac(Soac::Map(Map { lam, .. })) = &p.funs[0].body.stms[0].exp else {
        panic!()
    };
    let inner = lam.params[0].name;
    p.funs[0].body.result = vec![Operand::Var(inner)];
    assert!(err(&p).contains("is not in scope"), "{}", err(&p));
}

#[test]
fn rejects_operand_type_mismatch() {
    let mut p = squares_loop();
    with_first_stm(&mut p, |s| {
        s.exp = Exp::Basic(BasicOp::Replicate {
            n: Operand::f32(1.0),
            value: Operand::i64(0),
        });
    });
    assert!(
        err(&p).contains("replicate size 1.0f32 has type f32, expected i64"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_binop_on_wrong_type() {
    let mut pb = ProgramBuilder::new();
    let x = pb.param("x", F32);
    let xv = x.name;
    pb.function("f", vec![x], vec![F32], |b| {
        let y = b.bind(
            Exp::Basic(BasicOp::BinOp(BinOp::Shl, PF32, xv.into(), xv.into())),
            F32,
        );
        vec![y.into()]
    });
    let p = pb.finish();
    assert!(err(&p).contains("shl is not defined on f32"), "{}", err(&p));
}

#[test]
fn rejects_map_lambda_arity_mismatch() {
    let mut p = dot();
    let Exp::Soac(Soac::Map(Map { arrs, .. })) = &mut p.funs[0].body.stms[0].exp else {
        panic!()
    };
    arrs.pop();
    assert!(
        err(&p).contains("map function takes (f32, f32) but is applied to (f32)"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_neutral_element_mismatch() {
    let mut p = dot();
    let Exp::Soac(Soac::Reduce(Reduce { op, .. })) = &mut p.funs[0].body.stms[1].exp else {
        panic!()
    };
    op.neutral[0] = Operand::i64(0);
    assert!(
        err(&p).contains("operator takes (f32, f32) but is applied to (i64, i64)"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_wrong_function_result() {
    let mut p = dot();
    p.funs[0].ret = vec![I64];
    assert!(
        err(&p).contains("returns (f32) but declares (i64)"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_if_branch_mismatch() {
    let mut p = collatz();
    let Exp::Loop(Loop { body, .. }) = &mut p.funs[0].body.stms[1].exp else {
        panic!()
    };
    let Exp::If(If { else_br, .. }) = &mut body.stms[2].exp else {
        panic!()
    };
    else_br.result = vec![Operand::bool(true)];
    assert!(
        err(&p).contains("else branch returns (bool) but the if declares (i64)"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_loop_body_mismatch() {
    let mut p = squares_loop();
    let Exp::Loop(Loop { body, .. }) = &mut p.funs[0].body.stms[1].exp else {
        panic!()
    };
    body.result = vec![Operand::i64(0)];
    assert!(
        err(&p).contains("loop body returns (i64) but its parameters have types ([n_0]i64)"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_dimension_out_of_scope() {
    let mut p = dot();
    let Exp::Soac(Soac::Map(Map { lam, .. })) = &p.funs[0].body.stms[0].exp else {
        panic!()
    };
    let inner = lam.params[0].name;
    p.funs[0].body.stms[0].pat[0].ty = Type::array(PF32, vec![Dim::Var(inner)]);
    assert!(
        err(&p).contains(&format!("dimension {inner} is not in scope")),
        "{}",
        err(&p)
    );
}

#[test]
fn errors_carry_the_statement_span() {
    let mut p = squares_loop();
    let span = Span::new(FileId(0), 10, 20);
    with_first_stm(&mut p, |s| {
        s.span = span;
        s.exp = Exp::Basic(BasicOp::Replicate {
            n: Operand::bool(true),
            value: Operand::i64(0),
        });
    });
    let e = check_program(&p).unwrap_err();
    assert_eq!(e.span, Some(span));
    assert_eq!(e.fun, Some(Symbol::intern("squares")));
}

#[test]
fn rejects_bad_entry_signature() {
    let mut p = dot();
    p.entries[0].params.pop();
    assert!(
        err(&p).contains("external parameters do not match"),
        "{}",
        err(&p)
    );
}

#[test]
fn free_variables_of_lambda() {
    let p = histogram();
    let op = p.funs[0]
        .body
        .stms
        .iter()
        .find_map(|s| match &s.exp {
            Exp::Soac(Soac::Hist(Hist { op, .. })) => Some(op),
            _ => None,
        })
        .unwrap();
    assert!(free::free_in_lambda(&op.lam).is_empty());
    let f = free::free_in_body(&p.funs[0].body);
    let params: Vec<VName> = p.funs[0].params.iter().map(|p| p.name).collect();
    assert_eq!(f.len(), 3);
    assert!(params.iter().all(|v| f.contains(v)));
}
