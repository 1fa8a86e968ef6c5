//! Forward against reverse mode: `⟨ȳ, J ẋ⟩ = ⟨Jᵀ ȳ, ẋ⟩` on random points,
//! and `jvp` of `vjp` (Hessian-vector products) against finite
//! differences of the gradient.

mod harness;

use harness::*;
use parad_core::*;

fn sum_sin_sq() -> Fun {
    Fun::new(&[&[5]], |b, p| {
        let m = b.map(&[p[0]], |b, x| {
            let s = b.unop(UnOp::Sin, x[0]);
            vec![b.mul(s, x[0]).into()]
        });
        vec![b.reduce_op(BinOp::Add, &m, vec![c(0.0)])[0].into()]
    })
}

#[test]
fn jvp_and_vjp_agree_on_a_map_reduce() {
    check_dot(&sum_sin_sq(), 1, 3);
}

#[test]
fn jvp_and_vjp_agree_on_matrix_vector_product() {
    let f = Fun::new(&[&[3, 4], &[4]], |b, p| {
        let v = p[1];
        b.map(&[p[0]], |b, r| {
            let prods = b.map(&[r[0], v], |b, q| vec![b.mul(q[0], q[1]).into()]);
            vec![b.reduce_op(BinOp::Add, &prods, vec![c(0.0)])[0].into()]
        })
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    check_dot(&f, 2, 3);
}

#[test]
fn jvp_and_vjp_agree_on_a_loop() {
    let f = Fun::new(&[&[3], &[]], |b, p| {
        let y = p[1];
        let r = b.loop_for(&[p[0].into()], Operand::i64(3), |b, _, ps| {
            vec![b.map(&[ps[0]], |b, x| {
                let t = b.unop(UnOp::Tanh, x[0]);
                vec![b.mul(t, y).into()]
            })[0]
                .into()]
        });
        vec![r[0].into()]
    });
    check_dot(&f, 3, 3);
}

/// The gradient of `Σ sin(x)·x · w` (w free) by `vjp`, as a function of x.
fn gradient() -> Fun {
    Fun::new(&[&[4], &[4]], |b, p| {
        let w = p[1];
        let tys = vec![b.type_of(p[0])];
        let lam = b.lambda(tys, |b, q| {
            let m = b.map(&[q[0], w], |b, x| {
                let s = b.unop(UnOp::Sin, x[0]);
                let t = b.mul(s, x[0]);
                vec![b.mul(t, x[1]).into()]
            });
            vec![b.reduce_op(BinOp::Add, &m, vec![c(0.0)])[0].into()]
        });
        let r = b.emit(Exp::Ad(AdOp::Vjp(Vjp {
            lam,
            primals: vec![p[0].into()],
            adjoints: vec![c(1.0)],
        })));
        vec![r[1].into()]
    })
}

#[test]
fn jvp_of_vjp_gives_hessian_vector_products() {
    check_jvp_fd_tol(&gradient(), 4, 3, 1e-6);
    // The Hessian is diagonal: (2 cos x - x sin x) · w.
    let xs = [0.1, 0.5, -0.3, 1.2];
    let ws = [1.0, 2.0, 0.5, -1.0];
    let (_, ts) = jvp_at(
        &gradient(),
        vec![f64s(&xs), f64s(&ws)],
        vec![f64s(&[1.0; 4]), f64s(&[0.0; 4])],
    );
    let want: Vec<f64> = xs
        .iter()
        .zip(&ws)
        .map(|(x, w): (&f64, &f64)| (2.0 * x.cos() - x * x.sin()) * w)
        .collect();
    assert_close(&flat(&ts[0]), &want, 1e-13, "diagonal Hessian");
}

/// The gradient by `vjp` of `Σᵢ x[(i+1) % n] · sin x[i]`, whose map reads
/// the free array `x` (reverse mode accumulates into its adjoint).
fn gather_gradient() -> Fun {
    Fun::new(&[&[4]], |b, p| {
        let tys = vec![b.type_of(p[0])];
        let lam = b.lambda(tys, |b, q| {
            let xs = q[0];
            let is = b.iota(Operand::i64(4));
            let m = b.map(&[is, xs], |b, r| {
                let j = b.add(r[0], Operand::i64(1));
                let j = b.binop(BinOp::Mod, j, Operand::i64(4));
                let next = b.index(xs, &[j.into()]);
                let s = b.unop(UnOp::Sin, r[1]);
                vec![b.mul(next, s).into()]
            });
            vec![b.reduce_op(BinOp::Add, &m, vec![c(0.0)])[0].into()]
        });
        let r = b.emit(Exp::Ad(AdOp::Vjp(Vjp {
            lam,
            primals: vec![p[0].into()],
            adjoints: vec![c(1.0)],
        })));
        vec![r[1].into()]
    })
}

#[test]
fn jvp_of_vjp_through_accumulators() {
    check_jvp_fd_tol(&gather_gradient(), 5, 3, 1e-6);
}

#[test]
fn reverse_mode_of_free_array_reads_uses_accumulators() {
    // Guards the test above: it must exercise `jvp` of `withacc`/`upd`.
    let p = program(
        &gather_gradient(),
        Modes {
            jvp: false,
            vjp: false,
        },
    );
    let mut p = p;
    parad_ad::differentiate(&mut p).unwrap();
    let text = p.to_string();
    assert!(text.contains("withacc"), "{text}");
}
