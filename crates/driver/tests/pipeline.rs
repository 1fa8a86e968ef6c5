//! The pipeline as data: pass names and order, the IR checker after each
//! pass, dump hooks, and entry points left out one at a time.

use parad_base::{FloatType, PrimType, SourceMap};
use parad_core::{Operand, Program, ProgramBuilder, Type};
use parad_driver::*;
use parad_values::{Scalar, Value};
use std::sync::{Arc, Mutex};

/// Two entry points: `sq` (no AD) and `grad` (a `vjp`).
const SRC: &str = "entry sq (x: f64) = x * x\n\
                   entry grad (x: f64) = vjp (\\x -> x * x * x) x 1.0\n";

/// What a recording dump hook saw: `(pass, printed program)`.
type Seen = Arc<Mutex<Vec<(String, String)>>>;

/// A dump hook that records what it is given.
fn recorder() -> (DumpHook, Seen) {
    let seen = Arc::new(Mutex::new(vec![]));
    let s = seen.clone();
    let hook: DumpHook = Arc::new(move |pass: &str, p: &Program| {
        s.lock().unwrap().push((pass.to_string(), p.to_string()))
    });
    (hook, seen)
}

fn f64t() -> Type {
    Type::Prim(PrimType::Float(FloatType::F64))
}

/// `main (x: f64) = x * x`, well formed.
fn square() -> Program {
    let mut pb = ProgramBuilder::new();
    let x = pb.param("x", f64t());
    let xn = x.name;
    let f = pb.function("main", vec![x], vec![f64t()], |b| {
        vec![b.mul(xn, xn).into()]
    });
    pb.entry("main", f);
    pb.finish()
}

/// Makes the program return a name nothing binds.
fn break_program(c: &mut Compiled) -> Result<(), DriverError> {
    let ghost = c.program.names.fresh("ghost");
    c.program.funs[0].body.result = vec![Operand::Var(ghost)];
    Ok(())
}

const BREAK: Pass = Pass {
    name: "break",
    what: "breaking the program",
    run: break_program,
};

fn f64v(x: f64) -> Value {
    Value::Scalar(Scalar::F64(x))
}

#[test]
fn passes_are_named_in_pipeline_order() {
    assert_eq!(
        pass_names(),
        ["lower", "simplify", "differentiate", "optimise", "fuse", "copies"]
    );
    let names: Vec<&str> = Config::default().passes.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        ["simplify", "differentiate", "optimise", "fuse", "copies"]
    );
    assert_eq!(
        pass("optimise").map(|p| p.what),
        Some("optimisation after AD")
    );
    assert!(pass("lower").is_none(), "the front end is not a core pass");
    assert!(stage_names().contains(&"core") && stage_names().contains(&"opt"));
}

#[test]
fn stages_select_a_prefix_of_the_pipeline() {
    let names = |c: Config| -> Vec<&str> { c.passes.iter().map(|p| p.name).collect() };
    assert!(names(Config::up_to("lower").unwrap()).is_empty());
    assert_eq!(
        names(Config::up_to("differentiate").unwrap()),
        ["simplify", "differentiate"]
    );
    assert!(Config::up_to("imp").is_none());
    // The names older than the pass list keep their meaning.
    assert!(names(Config::for_stage("core").unwrap()).is_empty());
    assert_eq!(names(Config::for_stage("ad").unwrap()), ["differentiate"]);
    assert_eq!(
        names(Config::for_stage("opt").unwrap()),
        names(Config::default())
    );
    assert_eq!(
        Config::with_passes(&["optimise", "nonesuch"]).unwrap_err(),
        "nonesuch"
    );
}

#[test]
fn the_dump_hook_sees_every_stage_in_order() {
    let (hook, seen) = recorder();
    let config = Config::default()
        .with_dump_after(pass_names())
        .with_dump(hook);
    let c = compile_source("t.fut", SRC, &config).unwrap();
    let seen = seen.lock().unwrap();
    let order: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        order,
        ["lower", "simplify", "differentiate", "optimise", "fuse", "copies"]
    );
    // AD nodes exist until `differentiate` and not after.
    assert!(seen[0].1.contains("vjp"), "{}", seen[0].1);
    assert!(!seen[2].1.contains("vjp"), "{}", seen[2].1);
    assert_eq!(seen[5].1, c.program.to_string());
}

#[test]
fn only_the_named_stages_are_dumped() {
    let (hook, seen) = recorder();
    let config = Config::up_to("differentiate")
        .unwrap()
        .with_dump_after(["differentiate", "optimise"])
        .with_dump(hook);
    compile_source("t.fut", SRC, &config).unwrap();
    let order: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    // `optimise` does not run in this configuration.
    assert_eq!(order, ["differentiate"]);
}

#[test]
fn the_ir_checker_names_the_pass_that_broke_the_program() {
    let config = Config {
        passes: vec![SIMPLIFY, BREAK, OPTIMISE],
        ..Config::default()
    }
    .with_check_ir(true);
    let e = compile_program(square(), SourceMap::new(), &config).unwrap_err();
    match &e {
        DriverError::IllFormed { pass, .. } => assert_eq!(pass.as_deref(), Some("break")),
        other => panic!("expected an IR check failure, got {other:?}"),
    }
    let text = e.render();
    assert!(
        text.starts_with(
            "error: internal compiler error: the IR after breaking the program is ill-formed"
        ),
        "{text}"
    );
    // Without the checker the broken program goes through.
    let unchecked = config.with_check_ir(false);
    assert!(compile_program(square(), SourceMap::new(), &unchecked).is_ok());
}

#[test]
fn an_ill_formed_input_program_is_caught_before_any_pass() {
    let mut p = square();
    let ghost = p.names.fresh("ghost");
    p.funs[0].body.result = vec![Operand::Var(ghost)];
    let (hook, seen) = recorder();
    let config = Config::default()
        .with_check_ir(true)
        .with_dump_after(pass_names())
        .with_dump(hook);
    match compile_program(p, SourceMap::new(), &config) {
        Err(DriverError::IllFormed { pass: None, .. }) => {}
        other => panic!("expected an IR check failure, got {other:?}"),
    }
    assert!(seen.lock().unwrap().is_empty(), "no pass ran");
}

#[test]
fn the_front_end_output_is_checked_and_dumped_as_lower() {
    let (hook, seen) = recorder();
    let config = Config::up_to(LOWER)
        .unwrap()
        .with_check_ir(true)
        .with_dump_after([LOWER])
        .with_dump(hook);
    let c = compile_source("t.fut", SRC, &config).unwrap();
    assert!(c.program.to_string().contains("vjp"));
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn an_entry_point_ad_cannot_handle_is_left_out_alone() {
    // An operator that uses a differentiated free variable: not supported
    // by reverse AD today (pick another construct when it is).
    let src = "entry good (x: f64) = vjp (\\x -> x * x) x 1.0\n\
               entry bad (xs: []f64) (y: f64) = vjp (\\y -> reduce (\\a b -> a + b * y) 0 xs) y 1.0\n";
    let c = compile_source("t.fut", src, &Config::default().with_check_ir(true)).unwrap();
    assert_eq!(c.left_out.len(), 1);
    assert_eq!(c.left_out[0].entry, "bad");
    assert_eq!(c.left_out[0].pass, "differentiate");
    assert!(c.program.entry("bad").is_none());
    assert!(c.program.entry("good").is_some());
    assert!(c.has_entry("bad") && c.has_entry("good") && !c.has_entry("ugly"));
    let why = c.left_out_reason("bad").unwrap();
    assert!(why.is_unsupported());
    let text = why.render();
    assert!(text.starts_with("error: cannot differentiate"), "{text}");
    assert!(text.contains("t.fut:2:"), "{text}");

    // Through the interpreter backend: `good` runs, `bad` says why not.
    let mut loaded = Interpreted(c);
    assert_eq!(loaded.call("good", vec![f64v(3.0)]).unwrap(), [f64v(6.0)]);
    let e = loaded.call("bad", vec![]).unwrap_err();
    assert!(e.is_unsupported(), "{e:?}");
}

#[test]
fn front_end_errors_stay_diagnostics_until_rendered() {
    let e = compile_source(
        "bad.fut",
        "entry main (x: i32) : bool = x + 1\n",
        &Config::default(),
    )
    .unwrap_err();
    match &e {
        DriverError::Program(Message::Diagnostics { diagnostics, .. }) => {
            assert!(!diagnostics.is_empty())
        }
        other => panic!("expected type errors, got {other:?}"),
    }
    let text = e.render();
    assert!(
        text.starts_with("error:") && text.contains("bad.fut:1:"),
        "{text}"
    );
    let e = compile_file("no/such/file.fut".as_ref(), &Config::default()).unwrap_err();
    assert!(
        e.render()
            .starts_with("error: cannot read no/such/file.fut"),
        "{e}"
    );
}

#[test]
fn run_time_errors_are_located() {
    let src = "entry main (xs: []i32) (i: i64) : i32 =\n  xs[i] + 1\n";
    let mut p = Interpreted(compile_source("oob.fut", src, &Config::default()).unwrap());
    let xs = parad_values::read_values(b"[1, 2, 3] 7i64").unwrap();
    let e = p.call("main", xs).unwrap_err();
    assert!(matches!(e, DriverError::Runtime(_)), "{e:?}");
    assert!(e.render().contains("oob.fut:2:"), "{e}");
}

/// Wraps `main`'s body in a `jvp` again, as if a pass after AD had
/// produced one.
fn reintroduce_jvp(c: &mut Compiled) -> Result<(), DriverError> {
    let f = &mut c.program.funs[0];
    let x = f.params[0].clone();
    let y = c.program.names.fresh("y");
    let ty = x.ty.clone();
    let lam = parad_core::Lambda {
        params: vec![parad_core::Param::new(y, ty.clone())],
        ret: vec![ty.clone()],
        body: parad_core::Body::new(vec![], vec![Operand::Var(y)]),
    };
    let (r, t) = (c.program.names.fresh("r"), c.program.names.fresh("t"));
    let jvp = parad_core::Jvp {
        lam,
        primals: vec![Operand::Var(x.name)],
        tangents: vec![Operand::f64(1.0)],
    };
    let pat = vec![
        parad_core::Param::new(r, ty.clone()),
        parad_core::Param::new(t, ty),
    ];
    f.body
        .stms
        .push(parad_core::Stm::new(pat, jvp, Default::default()));
    f.body.result = vec![Operand::Var(r)];
    Ok(())
}

#[test]
fn ad_operators_are_rejected_after_the_ad_pass_only() {
    const JVP: Pass = Pass {
        name: "jvp",
        what: "adding a jvp",
        run: reintroduce_jvp,
    };
    let before = Config {
        passes: vec![JVP, DIFFERENTIATE],
        ..Config::default()
    }
    .with_check_ir(true);
    assert!(compile_program(square(), SourceMap::new(), &before).is_ok());
    let after = Config {
        passes: vec![DIFFERENTIATE, JVP],
        ..Config::default()
    }
    .with_check_ir(true);
    match compile_program(square(), SourceMap::new(), &after) {
        Err(DriverError::IllFormed { pass, error, .. }) => {
            assert_eq!(pass.as_deref(), Some("jvp"));
            assert!(
                error
                    .message
                    .contains("AD operator left after the AD stage"),
                "{error}"
            );
        }
        other => panic!("expected an IR check failure, got {other:?}"),
    }
}
