//! Consumption, aliasing and last-use analyses, the checker's rule that
//! nothing is used after it was consumed, and the repair by copies.

mod programs;

use parad_core::consume::{self, last_uses, Consumption, LastUse};
use parad_core::types::I64;
use parad_core::*;
use programs::*;

fn vec_i64() -> Type {
    arr(PI64, &[Dim::Ext])
}

fn mat_i64() -> Type {
    arr(PI64, &[Dim::Ext, Dim::Ext])
}

/// A program of one function `f(params) -> ret` built by `body`.
fn prog(
    params: &[(&str, Type)],
    ret: Vec<Type>,
    body: impl FnOnce(&mut Builder, &[VName]) -> Vec<Operand>,
) -> Program {
    let mut pb = ProgramBuilder::new();
    let ps: Vec<Param> = params.iter().map(|(n, t)| pb.param(n, t.clone())).collect();
    let names: Vec<VName> = ps.iter().map(|p| p.name).collect();
    pb.function("f", ps, ret, |b| body(b, &names));
    pb.finish()
}

/// What the statement binding `v` (at any depth) consumes.
fn consumed_by(p: &Program, v: VName) -> Vec<VName> {
    struct Find<'i, 'a> {
        info: &'i consume::Info<'a>,
        v: VName,
        out: Option<Vec<VName>>,
    }
    impl Visitor for Find<'_, '_> {
        fn visit_stm(&mut self, s: &Stm) {
            if s.pat.iter().any(|p| p.name == self.v) {
                self.out = Some(self.info.consumed_by(s).to_vec());
            }
            self.super_stm(s)
        }
    }
    let c = Consumption::of_program(p);
    let info = c.fun(&p.funs[0]);
    let mut f = Find {
        info: &info,
        v,
        out: None,
    };
    f.visit_body(&p.funs[0].body);
    f.out.expect("statement")
}

fn check_err(p: &Program) -> String {
    match check_program(p) {
        Ok(()) => panic!("checker accepted\n{p}"),
        Err(e) => e.to_string(),
    }
}

fn check_ok(p: &Program) {
    if let Err(e) = check_program(p) {
        panic!("{e}\n{p}")
    }
}

// ---- consumption ----

#[test]
fn update_consumes_its_array() {
    let mut y = None;
    let p = prog(&[("xs", vec_i64())], vec![vec_i64()], |b, ps| {
        let r = b.update(ps[0], &[Operand::i64(0)], Operand::i64(1));
        y = Some(r);
        vec![r.into()]
    });
    let xs = p.funs[0].params[0].name;
    assert_eq!(consumed_by(&p, y.unwrap()), vec![xs]);
    let c = Consumption::of_program(&p);
    assert_eq!(c.summary(p.funs[0].name).unwrap().consumed, vec![true]);
    check_ok(&p);
}

#[test]
fn scatter_and_hist_consume_their_destinations() {
    let (mut s, mut h) = (None, None);
    let p = prog(
        &[
            ("d", vec_i64()),
            ("e", vec_i64()),
            ("is", vec_i64()),
            ("vs", vec_i64()),
        ],
        vec![vec_i64(), vec_i64()],
        |b, ps| {
            let r = b.scatter(ps[0], ps[2], ps[3]);
            let q = b.hist(
                &[ps[1]],
                vec![Operand::i64(0)],
                ps[2],
                &[ps[3]],
                |b, x, y| vec![b.add(x[0], y[0]).into()],
            );
            s = Some(r);
            h = Some(q[0]);
            vec![r.into(), q[0].into()]
        },
    );
    let ps: Vec<VName> = p.funs[0].params.iter().map(|p| p.name).collect();
    assert_eq!(consumed_by(&p, s.unwrap()), vec![ps[0]]);
    assert_eq!(consumed_by(&p, h.unwrap()), vec![ps[1]]);
    check_ok(&p);
}

/// `withacc` over `xs`: `upd` consumes the accumulator, `withacc` its
/// input array.
fn withacc_prog() -> (Program, VName, VName) {
    let (mut w, mut u) = (None, None);
    let p = prog(&[("xs", vec_i64())], vec![vec_i64()], |b, ps| {
        let n = b.width(ps[0]);
        let input = AccInput {
            ispace: vec![n],
            arrs: vec![ps[0]],
            op: None,
        };
        let r = b.withacc(vec![input], |b, accs| {
            let a = b.upd(accs[0], vec![Operand::i64(0)], vec![Operand::i64(7)]);
            u = Some(a);
            vec![a.into()]
        });
        w = Some(r[0]);
        vec![r[0].into()]
    });
    (p, w.unwrap(), u.unwrap())
}

#[test]
fn withacc_consumes_its_arrays_and_upd_its_accumulator() {
    let (p, w, u) = withacc_prog();
    let xs = p.funs[0].params[0].name;
    assert_eq!(consumed_by(&p, w), vec![xs]);
    let acc = p.funs[0]
        .body
        .stms
        .iter()
        .find_map(|s| match &s.exp {
            Exp::Soac(Soac::WithAcc(wa)) => Some(wa.lam.params[0].name),
            _ => None,
        })
        .unwrap();
    assert_eq!(consumed_by(&p, u), vec![acc]);
    check_ok(&p);
}

#[test]
fn loop_consumes_the_initial_value_of_a_consumed_parameter() {
    let p = squares_loop();
    let Exp::Loop(l) = &p.funs[0].body.stms[1].exp else {
        panic!()
    };
    let init = l.params[0].1.var().unwrap();
    let res = p.funs[0].body.stms[1].pat[0].name;
    assert_eq!(consumed_by(&p, res), vec![init]);
    // A loop that only reads its parameter consumes nothing.
    let mut r = None;
    let q = prog(&[("xs", vec_i64()), ("n", I64)], vec![I64], |b, ps| {
        let out = b.loop_for(&[ps[0].into(), Operand::i64(0)], ps[1], |b, i, p| {
            let x = b.index(p[0], &[i.into()]);
            vec![p[0].into(), b.add(p[1], x).into()]
        });
        r = Some(out[0]);
        vec![out[1].into()]
    });
    assert!(consumed_by(&q, r.unwrap()).is_empty());
    check_ok(&q);
}

#[test]
fn map_consumes_an_input_whose_row_is_consumed() {
    let mut m = None;
    let p = prog(&[("xss", mat_i64())], vec![mat_i64()], |b, ps| {
        let r = b.map(&[ps[0]], |b, row| {
            vec![b.update(row[0], &[Operand::i64(0)], Operand::i64(1)).into()]
        });
        m = Some(r[0]);
        vec![r[0].into()]
    });
    let xss = p.funs[0].params[0].name;
    assert_eq!(consumed_by(&p, m.unwrap()), vec![xss]);
    check_ok(&p);
    // Reading rows consumes nothing.
    let mut m = None;
    let q = prog(&[("xss", mat_i64())], vec![vec_i64()], |b, ps| {
        let r = b.map(&[ps[0]], |b, row| {
            vec![b.index(row[0], &[Operand::i64(0)]).into()]
        });
        m = Some(r[0]);
        vec![r[0].into()]
    });
    assert!(consumed_by(&q, m.unwrap()).is_empty());
}

#[test]
fn if_consumes_what_either_branch_consumes() {
    let mut r = None;
    let p = prog(
        &[("c", types::BOOL), ("xs", vec_i64()), ("ys", vec_i64())],
        vec![vec_i64()],
        |b, ps| {
            let (xs, ys) = (ps[1], ps[2]);
            let out = b.if_(
                ps[0],
                |b| vec![b.update(xs, &[Operand::i64(0)], Operand::i64(1)).into()],
                |b| vec![b.update(ys, &[Operand::i64(0)], Operand::i64(2)).into()],
            );
            r = Some(out[0]);
            vec![out[0].into()]
        },
    );
    let ps: Vec<VName> = p.funs[0].params.iter().map(|p| p.name).collect();
    assert_eq!(consumed_by(&p, r.unwrap()), vec![ps[1], ps[2]]);
    check_ok(&p);
}

#[test]
fn consuming_a_view_consumes_its_array() {
    let (mut v, mut u) = (None, None);
    let p = prog(&[("xss", mat_i64())], vec![vec_i64()], |b, ps| {
        let flat = b.flatten(ps[0]);
        let rev = b.reverse(flat);
        let r = b.update(rev, &[Operand::i64(0)], Operand::i64(1));
        v = Some(rev);
        u = Some(r);
        vec![r.into()]
    });
    let xss = p.funs[0].params[0].name;
    let c = Consumption::of_program(&p);
    let info = c.fun(&p.funs[0]);
    let rev = v.unwrap();
    let flat = p.funs[0].body.stms[0].pat[0].name;
    let mut both = vec![xss, flat];
    both.sort();
    assert_eq!(info.aliases(rev), both.as_slice());
    let mut expect = vec![xss, flat, rev];
    expect.sort();
    assert_eq!(consumed_by(&p, u.unwrap()), expect);
    // The function consumes its parameter through the view.
    assert_eq!(c.summary(p.funs[0].name).unwrap().consumed, vec![true]);
    // A row of a matrix is a view; a copy is not.
    let q = prog(&[("xss", mat_i64())], vec![vec_i64()], |b, ps| {
        let row = b.index(ps[0], &[Operand::i64(0)]);
        let own = b.copy(row);
        vec![b.update(own, &[Operand::i64(0)], Operand::i64(1)).into()]
    });
    let c = Consumption::of_program(&q);
    assert_eq!(c.summary(q.funs[0].name).unwrap().consumed, vec![false]);
}

#[test]
fn calls_consume_what_the_callee_consumes() {
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", vec_i64());
    let xv = xs.name;
    pb.function("g", vec![xs], vec![vec_i64()], |b| {
        vec![b.update(xv, &[Operand::i64(0)], Operand::i64(1)).into()]
    });
    let ys = pb.param("ys", vec_i64());
    let yv = ys.name;
    let mut call = None;
    pb.function("f", vec![ys], vec![vec_i64()], |b| {
        let r = b.apply("g", vec![yv.into()]);
        call = Some(r[0]);
        vec![r[0].into()]
    });
    let p = pb.finish();
    let c = Consumption::of_program(&p);
    assert_eq!(c.summary(p.funs[1].name).unwrap().consumed, vec![true]);
    let info = c.fun(&p.funs[1]);
    assert_eq!(info.consumed_by(&p.funs[1].body.stms[0]), &[yv]);
    check_ok(&p);
}

#[test]
fn results_alias_through_ifs_loops_and_calls() {
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("xs", vec_i64());
    let xv = xs.name;
    // `id xs = xs`: its result aliases its parameter.
    pb.function("id", vec![xs], vec![vec_i64()], |_| vec![xv.into()]);
    let c = pb.param("c", types::BOOL);
    let a = pb.param("a", vec_i64());
    let bb = pb.param("b", vec_i64());
    let (cv, av, bv) = (c.name, a.name, bb.name);
    let mut names = vec![];
    pb.function("f", vec![c, a, bb], vec![vec_i64()], |b| {
        let i = b.if_(cv, |_| vec![av.into()], |_| vec![bv.into()])[0];
        // The loop swaps: each result may be either initial value.
        let l = b.loop_for(&[av.into(), bv.into()], Operand::i64(3), |_, _, p| {
            vec![p[1].into(), p[0].into()]
        });
        let k = b.apply("id", vec![av.into()])[0];
        names = vec![i, l[0], k];
        vec![i.into()]
    });
    let p = pb.finish();
    let c = Consumption::of_program(&p);
    assert_eq!(c.summary(p.funs[0].name).unwrap().aliases, vec![vec![0]]);
    let info = c.fun(&p.funs[1]);
    let mut ab = vec![av, bv];
    ab.sort();
    assert_eq!(info.aliases(names[0]), ab.as_slice());
    assert_eq!(info.aliases(names[1]), ab.as_slice());
    assert_eq!(info.aliases(names[2]), &[av]);
}

// ---- last use ----

/// The index of the statement of `b` binding `v`.
fn pos(b: &Body, v: VName) -> usize {
    b.stms
        .iter()
        .position(|s| s.pat.iter().any(|p| p.name == v))
        .expect("bound")
}

#[test]
fn last_uses_distinguish_nested_uses_and_bound_names() {
    // f(xs, n) = let a = n + 1; let m = map (\x -> x + a) xs; let s = a * 2 in (m, s)
    let mut names = vec![];
    let p = prog(
        &[("xs", vec_i64()), ("n", I64)],
        vec![vec_i64(), I64],
        |b, ps| {
            let a = b.add(ps[1], Operand::i64(1));
            let m = b.map(&[ps[0]], |b, x| vec![b.add(x[0], a).into()]);
            let s = b.mul(a, Operand::i64(2));
            names = vec![a, m[0], s];
            vec![m[0].into(), s.into()]
        },
    );
    let f = &p.funs[0];
    let (xs, n) = (f.params[0].name, f.params[1].name);
    let (a, m, s) = (names[0], names[1], names[2]);
    let lu = last_uses(&f.body, &[xs]);
    // `n` is free in the body (not among the parameters given).
    assert_eq!(
        lu.stms[pos(&f.body, a)],
        vec![LastUse {
            name: n,
            nested: false,
            bound: false
        }]
    );
    // `xs` is last used by the map's own operands (and by the width
    // before it); `a` inside the map, then by `s`.
    assert!(lu.stms[pos(&f.body, m)].contains(&LastUse {
        name: xs,
        nested: false,
        bound: true
    }));
    assert!(lu.stms[pos(&f.body, m)].iter().all(|u| u.name != a));
    assert_eq!(
        lu.stms[pos(&f.body, s)],
        vec![LastUse {
            name: a,
            nested: false,
            bound: true
        }]
    );
    // Results are live to the end.
    assert!(lu.stms.iter().flatten().all(|u| u.name != m && u.name != s));
    // A name whose last use is inside a nested body.
    let mut names = vec![];
    let q = prog(
        &[("xs", vec_i64()), ("n", I64)],
        vec![vec_i64()],
        |b, ps| {
            let a = b.add(ps[1], Operand::i64(1));
            let m = b.map(&[ps[0]], |b, x| vec![b.add(x[0], a).into()]);
            names = vec![a, m[0]];
            vec![m[0].into()]
        },
    );
    let f = &q.funs[0];
    let lu = last_uses(&f.body, &[]);
    assert!(lu.stms[pos(&f.body, names[1])].contains(&LastUse {
        name: names[0],
        nested: true,
        bound: true
    }));
}

// ---- the checker ----

#[test]
fn rejects_use_after_update() {
    let p = prog(&[("xs", vec_i64())], vec![vec_i64(), I64], |b, ps| {
        let ys = b.update(ps[0], &[Operand::i64(0)], Operand::i64(1));
        let x = b.index(ps[0], &[Operand::i64(1)]);
        vec![ys.into(), x.into()]
    });
    let xs = p.funs[0].params[0].name;
    let e = check_err(&p);
    assert!(
        e.contains(&format!(
            "{xs} is used after it was consumed by the update `let "
        )),
        "{e}"
    );
}

#[test]
fn rejects_use_in_the_result_after_consumption() {
    let p = prog(&[("xs", vec_i64())], vec![vec_i64(), vec_i64()], |b, ps| {
        let ys = b.update(ps[0], &[Operand::i64(0)], Operand::i64(1));
        vec![ys.into(), ps[0].into()]
    });
    assert!(check_err(&p).contains("is used after it was consumed"));
}

#[test]
fn rejects_use_of_a_view_after_its_array_is_consumed() {
    let p = prog(&[("xss", mat_i64())], vec![mat_i64(), I64], |b, ps| {
        let row = b.index(ps[0], &[Operand::i64(0)]);
        let ys = b.update(ps[0], &[Operand::i64(1)], row);
        let _ = ys;
        let copy = b.copy(ps[0]);
        let _ = copy;
        vec![ys.into(), Operand::i64(0)]
    });
    // The update's value aliases its array (Futhark rejects this too).
    let e = check_err(&p);
    assert!(e.contains("is used by the update"), "{e}");
    let q = prog(&[("xss", mat_i64())], vec![mat_i64(), I64], |b, ps| {
        let row = b.index(ps[0], &[Operand::i64(0)]);
        let ys = b.update(ps[0], &[Operand::i64(1), Operand::i64(0)], Operand::i64(5));
        let x = b.index(row, &[Operand::i64(0)]);
        vec![ys.into(), x.into()]
    });
    let e = check_err(&q);
    assert!(
        e.contains("which it aliases, was consumed by the update"),
        "{e}"
    );
}

#[test]
fn rejects_use_in_a_nested_body_after_consumption() {
    let p = prog(&[("xs", vec_i64())], vec![vec_i64(), vec_i64()], |b, ps| {
        let xs = ps[0];
        let ys = b.update(xs, &[Operand::i64(0)], Operand::i64(1));
        let m = b.map(&[ys], |b, y| {
            let x = b.index(xs, &[Operand::i64(0)]);
            vec![b.add(y[0], x).into()]
        });
        vec![ys.into(), m[0].into()]
    });
    assert!(check_err(&p).contains("is used after it was consumed"));
}

#[test]
fn branches_are_independent_but_a_use_after_the_if_is_not() {
    let ok = prog(
        &[("c", types::BOOL), ("xs", vec_i64())],
        vec![vec_i64()],
        |b, ps| {
            let xs = ps[1];
            let r = b.if_(
                ps[0],
                |b| vec![b.update(xs, &[Operand::i64(0)], Operand::i64(1)).into()],
                |_| vec![xs.into()],
            );
            vec![r[0].into()]
        },
    );
    check_ok(&ok);
    let bad = prog(
        &[("c", types::BOOL), ("xs", vec_i64())],
        vec![vec_i64(), I64],
        |b, ps| {
            let xs = ps[1];
            let r = b.if_(
                ps[0],
                |b| vec![b.update(xs, &[Operand::i64(0)], Operand::i64(1)).into()],
                |_| vec![xs.into()],
            );
            let x = b.index(xs, &[Operand::i64(0)]);
            vec![r[0].into(), x.into()]
        },
    );
    assert!(check_err(&bad).contains("is used after it was consumed by the update"));
}

#[test]
fn accepts_in_place_loops_and_uses_of_the_result() {
    check_ok(&squares_loop());
    let p = prog(&[("xs", vec_i64())], vec![I64], |b, ps| {
        let ys = b.update(ps[0], &[Operand::i64(0)], Operand::i64(1));
        let zs = b.update(ys, &[Operand::i64(1)], Operand::i64(2));
        let a = b.index(zs, &[Operand::i64(0)]);
        let c = b.index(zs, &[Operand::i64(1)]);
        vec![b.add(a, c).into()]
    });
    check_ok(&p);
}

#[test]
fn rejects_a_loop_body_consuming_what_is_bound_outside() {
    let p = prog(&[("xs", vec_i64()), ("n", I64)], vec![I64], |b, ps| {
        let xs = ps[0];
        let r = b.loop_for(&[Operand::i64(0)], ps[1], |b, i, p| {
            let ys = b.update(xs, &[i.into()], Operand::i64(1));
            let y = b.index(ys, &[i.into()]);
            vec![b.add(p[0], y).into()]
        });
        vec![r[0].into()]
    });
    let e = check_err(&p);
    assert!(e.contains("is used inside the loop"), "{e}");
    assert!(e.contains("another iteration"), "{e}");
}

#[test]
fn rejects_a_loop_reading_the_initial_value_it_consumes() {
    let p = prog(
        &[("xs", vec_i64()), ("n", I64)],
        vec![vec_i64()],
        |b, ps| {
            let xs = ps[0];
            let r = b.loop_for(&[xs.into()], ps[1], |b, i, p| {
                let x = b.index(xs, &[i.into()]);
                vec![b.update(p[0], &[i.into()], x).into()]
            });
            vec![r[0].into()]
        },
    );
    let xs = p.funs[0].params[0].name;
    let e = check_err(&p);
    assert!(e.contains(&format!("{xs} is used inside the loop")), "{e}");
}

#[test]
fn rejects_a_consumed_parameter_fed_from_outside() {
    // loop (acc = copy xs) … in xs: the next iteration would consume xs.
    let p = prog(
        &[("xs", vec_i64()), ("n", I64)],
        vec![vec_i64()],
        |b, ps| {
            let xs = ps[0];
            let c = b.copy(xs);
            let r = b.loop_for(&[c.into()], ps[1], |b, i, p| {
                let u = b.update(p[0], &[i.into()], Operand::i64(0));
                let _ = u;
                vec![xs.into()]
            });
            vec![r[0].into()]
        },
    );
    let e = check_err(&p);
    assert!(e.contains("but the body's result for it aliases"), "{e}");
}

#[test]
fn rejects_a_map_reading_the_array_whose_rows_it_consumes() {
    let p = prog(&[("xss", mat_i64())], vec![mat_i64()], |b, ps| {
        let xss = ps[0];
        let r = b.map(&[xss], |b, row| {
            let x = b.index(xss, &[Operand::i64(0), Operand::i64(0)]);
            vec![b.update(row[0], &[Operand::i64(0)], x).into()]
        });
        vec![r[0].into()]
    });
    let e = check_err(&p);
    assert!(e.contains("is used inside the map"), "{e}");
}

#[test]
fn rejects_scatter_reading_its_destination() {
    let p = prog(
        &[("d", vec_i64()), ("is", vec_i64())],
        vec![vec_i64()],
        |b, ps| vec![b.scatter(ps[0], ps[1], ps[0]).into()],
    );
    let e = check_err(&p);
    assert!(e.contains("is used by the scatter"), "{e}");
}

#[test]
fn rejects_withacc_reading_its_array_and_accepts_a_copy() {
    let build = |copy: bool| {
        prog(&[("xs", vec_i64())], vec![vec_i64()], |b, ps| {
            let xs = ps[0];
            let src = if copy { b.copy(xs) } else { xs };
            let n = b.width(xs);
            let input = AccInput {
                ispace: vec![n],
                arrs: vec![xs],
                op: None,
            };
            let r = b.withacc(vec![input], |b, accs| {
                let x = b.index(src, &[Operand::i64(0)]);
                vec![b.upd(accs[0], vec![Operand::i64(0)], vec![x.into()]).into()]
            });
            vec![r[0].into()]
        })
    };
    let e = check_err(&build(false));
    assert!(e.contains("is used inside the withacc"), "{e}");
    check_ok(&build(true));
}

// ---- repair ----

#[test]
fn insert_copies_repairs_with_one_copy_and_leaves_valid_programs_alone() {
    let mut p = prog(&[("xs", vec_i64())], vec![vec_i64(), I64], |b, ps| {
        let ys = b.update(ps[0], &[Operand::i64(0)], Operand::i64(1));
        let x = b.index(ps[0], &[Operand::i64(1)]);
        vec![ys.into(), x.into()]
    });
    consume::insert_copies(&mut p);
    check_ok(&p);
    let copies = p.funs[0]
        .body
        .stms
        .iter()
        .filter(|s| matches!(s.exp, Exp::Basic(BasicOp::Copy { .. })))
        .count();
    assert_eq!(copies, 1, "{p}");
    let mut q = squares_loop();
    let before = q.clone();
    consume::insert_copies(&mut q);
    assert_eq!(q, before);
}

#[test]
fn insert_copies_repairs_loops_and_views() {
    let mut ps = vec![
        // The loop body consumes an array bound outside.
        prog(&[("xs", vec_i64()), ("n", I64)], vec![I64], |b, ps| {
            let xs = ps[0];
            let r = b.loop_for(&[Operand::i64(0)], ps[1], |b, i, p| {
                let ys = b.update(xs, &[i.into()], Operand::i64(1));
                let y = b.index(ys, &[i.into()]);
                vec![b.add(p[0], y).into()]
            });
            vec![r[0].into()]
        }),
        // A row read after its matrix is updated.
        prog(&[("xss", mat_i64())], vec![mat_i64(), I64], |b, ps| {
            let row = b.index(ps[0], &[Operand::i64(0)]);
            let ys = b.update(ps[0], &[Operand::i64(0), Operand::i64(0)], Operand::i64(5));
            let x = b.index(row, &[Operand::i64(0)]);
            vec![ys.into(), x.into()]
        }),
        // The update's value is a row of its array.
        prog(&[("xss", mat_i64())], vec![mat_i64()], |b, ps| {
            let row = b.index(ps[0], &[Operand::i64(0)]);
            vec![b.update(ps[0], &[Operand::i64(1)], row).into()]
        }),
        // A consumed loop parameter fed from outside.
        prog(
            &[("xs", vec_i64()), ("n", I64)],
            vec![vec_i64()],
            |b, ps| {
                let xs = ps[0];
                let c = b.copy(xs);
                let r = b.loop_for(&[c.into()], ps[1], |b, i, p| {
                    let _ = b.update(p[0], &[i.into()], Operand::i64(0));
                    vec![xs.into()]
                });
                vec![r[0].into()]
            },
        ),
        // A map reading the array whose rows it updates.
        prog(&[("xss", mat_i64())], vec![mat_i64()], |b, ps| {
            let xss = ps[0];
            let r = b.map(&[xss], |b, row| {
                let x = b.index(xss, &[Operand::i64(0), Operand::i64(0)]);
                vec![b.update(row[0], &[Operand::i64(0)], x).into()]
            });
            vec![r[0].into()]
        }),
    ];
    for p in &mut ps {
        consume::insert_copies(p);
        check_ok(p);
    }
    // The row is copied, not the matrix.
    let Exp::Basic(BasicOp::Copy { arr }) = &ps[1].funs[0].body.stms[1].exp else {
        panic!("{}", ps[1])
    };
    assert_eq!(*arr, ps[1].funs[0].body.stms[0].pat[0].name);
}
