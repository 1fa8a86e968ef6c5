mod programs;

use parad_base::{FileId, Span};
use parad_core::types::{F32, I64};
use parad_core::*;
use programs::*;

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

// ---- screma ----

/// `main xs = screma xs` with `x ↦ (x, x, 0.5, x·x)`: a `+` scan of the
/// first result, an affine reduction (a tuple operator) of the next two,
/// the last mapped.
fn screma_program() -> Program {
    let f64_ = parad_core::types::F64;
    let f64_arr = Type::array(f64_.as_prim().unwrap(), vec![Dim::Ext]);
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", f64_arr.clone());
    let x = xs.name;
    let ret = vec![f64_arr.clone(), f64_.clone(), f64_.clone(), f64_arr];
    let f = pb.function("main", vec![xs], ret, |b| {
        let w = b.width(x);
        let lam = b.lambda(vec![f64_.clone()], |b, r| {
            let sq = b.mul(r[0], r[0]);
            vec![r[0].into(), r[0].into(), Operand::f64(0.5), sq.into()]
        });
        let plus = AccOp {
            lam: b.binop_lambda(BinOp::Add, vec![f64_.clone()]),
            neutral: vec![Operand::f64(0.0)],
        };
        let affine = b.op_lambda(vec![f64_.clone(), f64_.clone()], |b, l, r| {
            let a = b.mul(r[0], l[0]);
            let t = b.mul(r[0], l[1]);
            vec![a.into(), b.add(t, r[1]).into()]
        });
        let reds = vec![Reduction {
            comm: false,
            op: AccOp {
                lam: affine,
                neutral: vec![Operand::f64(1.0), Operand::f64(0.0)],
            },
        }];
        let sc = Screma {
            w,
            arrs: vec![x],
            scans: vec![plus],
            reds,
            lam,
        };
        b.emit(sc).into_iter().map(Operand::Var).collect()
    });
    pb.entry("main", f);
    pb.finish()
}

/// Runs `f` with a builder whose fresh names are new to `p`.
fn with_builder<R>(p: &mut Program, f: impl FnOnce(&mut Builder) -> R) -> R {
    let mut ctx = builder::Ctx::for_program(p);
    let r = f(&mut Builder::new(&mut ctx));
    p.names = ctx.names;
    r
}

/// The screma of [`screma_program`].
fn the_screma(p: &mut Program) -> &mut Screma {
    p.funs[0]
        .body
        .stms
        .iter_mut()
        .find_map(|s| match &mut s.exp {
            Exp::Soac(Soac::Screma(sc)) => Some(sc),
            _ => None,
        })
        .expect("a screma")
}

#[test]
fn screma_checks() {
    let p = screma_program();
    check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    check_program_at(&p, Stage::AfterAd).unwrap_or_else(|e| panic!("{e}\n{p}"));
}

#[test]
fn rejects_screma_with_too_few_results_for_its_operators() {
    let mut p = screma_program();
    let lam = &mut the_screma(&mut p).lam;
    // `x ↦ (x, x)`: the reduction's second operand is missing.
    lam.ret.truncate(2);
    lam.body.result.truncate(2);
    assert!(
        err(&p).contains("reduction operator on (f64, f64) applied to screma results"),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_screma_neutral_of_the_wrong_type() {
    let mut p = screma_program();
    the_screma(&mut p).reds[0].op.neutral[1] = Operand::i64(0);
    assert!(
        err(&p).contains(
            "reduction operator takes (f64, f64, f64, f64) but is applied to (f64, i64, f64, i64)"
        ),
        "{}",
        err(&p)
    );
}

#[test]
fn rejects_screma_scan_on_results_of_another_type() {
    let mut p = screma_program();
    let lam = with_builder(&mut p, |b| b.binop_lambda(BinOp::Add, vec![I64]));
    the_screma(&mut p).scans[0] = AccOp {
        lam,
        neutral: vec![Operand::i64(0)],
    };
    assert!(
        err(&p).contains("scan operator on (i64) applied to screma results (f64)"),
        "{}",
        err(&p)
    );
}

// ---- stages ----

/// Builds an AD operator on `x ↦ x·x` at a variable.
type AdGen = fn(&mut Builder, VName) -> Exp;

/// `main x = e` where `ad` builds `e`, an AD operator on `x ↦ x·x` at
/// `x`, inside a `map` over a one-element array when `nested`.
fn ad_program(nested: bool, ad: AdGen) -> Program {
    let f64_ = parad_core::types::F64;
    let mut pb = ProgramBuilder::new();
    let x = pb.param("x", f64_.clone());
    let xv = x.name;
    let f = pb.function("main", vec![x], vec![f64_], |b| {
        if !nested {
            let e = ad(b, xv);
            return vec![b.emit(e)[0].into()];
        }
        let xs = b.replicate(Operand::i64(1), xv);
        let ys = b.map(&[xs], |b, r| {
            let e = ad(b, r[0]);
            vec![b.emit(e)[0].into()]
        });
        vec![b.index(ys[0], &[Operand::i64(0)]).into()]
    });
    pb.entry("main", f);
    pb.finish()
}

fn square(b: &mut Builder) -> Lambda {
    b.lambda(vec![parad_core::types::F64], |b, x| {
        vec![b.mul(x[0], x[0]).into()]
    })
}

fn jvp(b: &mut Builder, x: VName) -> Exp {
    let lam = square(b);
    Jvp {
        lam,
        primals: vec![x.into()],
        tangents: vec![Operand::f64(1.0)],
    }
    .into()
}

fn vjp(b: &mut Builder, x: VName) -> Exp {
    let lam = square(b);
    Vjp {
        lam,
        primals: vec![x.into()],
        adjoints: vec![Operand::f64(1.0)],
    }
    .into()
}

fn with_vjp(b: &mut Builder, x: VName) -> Exp {
    let lam = square(b);
    // (y, ȳ) ↦ ȳ (not the true adjoint; the checker only sees types)
    let adj = b.lambda(vec![parad_core::types::F64; 2], |_, p| vec![p[1].into()]);
    WithVjp {
        lam,
        adj,
        args: vec![x.into()],
    }
    .into()
}

#[test]
fn ad_operators_are_rejected_after_the_ad_stage_only() {
    let cases: [(&str, AdGen); 3] = [("jvp", jvp), ("vjp", vjp), ("with_vjp", with_vjp)];
    for (name, ad) in cases {
        for nested in [false, true] {
            let p = ad_program(nested, ad);
            check_program(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
            check_program_at(&p, Stage::BeforeAd).unwrap_or_else(|e| panic!("{e}\n{p}"));
            let e = check_program_at(&p, Stage::AfterAd)
                .expect_err("AD operator accepted after AD")
                .to_string();
            let expected = format!("AD operator left after the AD stage: {name}(");
            assert!(e.contains(&expected), "{e}\n{p}");
        }
    }
}
