//! The dot-product test between forward and reverse mode,
//! `⟨ȳ, J ẋ⟩ = ⟨Jᵀ ȳ, ẋ⟩`, on random inputs for each reverse rule.

mod harness;
use harness::*;
use parad_core::*;

/// Indices `(7·i) mod (m + 2) - 1` for `i < n`: in range, out of range
/// (-1 and m) and repeated.
fn indices(b: &mut Builder, n: Operand, m: i64) -> VName {
    let is = b.iota(n);
    b.map(&[is], |b, i| {
        let k = b.mul(i[0], Operand::i64(7));
        let r = b.binop(BinOp::Mod, k, Operand::i64(m + 2));
        vec![b.sub(r, Operand::i64(1)).into()]
    })[0]
}

fn sum(b: &mut Builder, xs: VName) -> Operand {
    b.reduce_op(BinOp::Add, &[xs], vec![c(0.0)])[0].into()
}

#[test]
fn map_with_free_scalars_and_arrays() {
    let f = Fun::new(&[&[5], &[3], &[]], |b, p| {
        let (xs, ws, s) = (p[0], p[1], p[2]);
        let n = b.width(xs);
        let is = b.iota(n);
        vec![b.map(&[xs, is], |b, q| {
            let j = b.binop(BinOp::Mod, q[1], Operand::i64(3));
            let w = b.index(ws, &[j.into()]);
            let t = b.mul(q[0], w);
            let t = b.mul(t, s);
            vec![b.unop(UnOp::Sin, t).into()]
        })[0]
            .into()]
    });
    check_dot(&f, 1, 3);
}

#[test]
fn reductions() {
    let f = Fun::new(&[&[6]], |b, p| {
        let xs = p[0];
        let s = sum(b, xs);
        let pr = b.reduce_op(BinOp::Mul, &[xs], vec![c(1.0)])[0];
        let mn = b.reduce_op(BinOp::Min, &[xs], vec![c(f64::INFINITY)])[0];
        let mx = b.reduce_op(BinOp::Max, &[xs], vec![c(f64::NEG_INFINITY)])[0];
        let g = b.reduce(false, &[xs], vec![c(0.0)], |b, x, y| {
            let s = b.add(x[0], y[0]);
            let m = b.mul(x[0], y[0]);
            vec![b.add(s, m).into()]
        })[0];
        vec![s, pr.into(), mn.into(), mx.into(), g.into()]
    });
    check_dot(&f, 2, 3);
}

#[test]
fn scans() {
    let f = Fun::new(&[&[5], &[5]], |b, p| {
        let s = b.scan(&[p[0]], vec![c(0.0)], |b, x, y| {
            vec![b.add(x[0], y[0]).into()]
        })[0];
        let m = b.scan(&[p[0]], vec![c(1.0)], |b, x, y| {
            vec![b.mul(x[0], y[0]).into()]
        })[0];
        let a = b.scan(&[p[0], p[1]], vec![c(1.0), c(0.0)], |b, x, y| {
            let a = b.mul(y[0], x[0]);
            let t = b.mul(y[0], x[1]);
            vec![a.into(), b.add(t, y[1]).into()]
        });
        vec![s.into(), m.into(), a[0].into(), a[1].into()]
    });
    check_dot(&f, 3, 3);
}

#[test]
fn histograms() {
    let f = Fun::new(&[&[4], &[9]], |b, p| {
        let (dst, vs) = (p[0], p[1]);
        let n = b.width(vs);
        let is = indices(b, n, 4);
        let mut out = vec![];
        for op in [BinOp::Add, BinOp::Mul, BinOp::Min, BinOp::Max] {
            let d = b.copy(dst);
            let ne = match op {
                BinOp::Add => 0.0,
                BinOp::Mul => 1.0,
                BinOp::Min => f64::INFINITY,
                _ => f64::NEG_INFINITY,
            };
            let h = b.hist(&[d], vec![c(ne)], is, &[vs], |b, x, y| {
                vec![b.binop(op, x[0], y[0]).into()]
            });
            out.push(h[0].into());
        }
        let d = b.copy(dst);
        let h = b.hist(&[d], vec![c(0.0)], is, &[vs], |b, x, y| {
            let s = b.add(x[0], y[0]);
            let m = b.mul(x[0], y[0]);
            vec![b.add(s, m).into()]
        });
        out.push(h[0].into());
        out
    });
    check_dot(&f, 4, 3);
}

#[test]
fn scatter_update_and_loop() {
    let f = Fun::new(&[&[6], &[3], &[]], |b, p| {
        let (xs, vs, x) = (p[0], p[1], p[2]);
        let n = b.width(vs);
        let is = b.iota(n);
        let is = b.map(&[is], |b, i| {
            let k = b.mul(i[0], Operand::i64(2));
            vec![b.add(k, Operand::i64(1)).into()]
        })[0];
        let d = b.copy(xs);
        let ys = b.scatter(d, is, vs);
        let xx = b.mul(x, x);
        let ys = b.update(ys, &[Operand::i64(0)], xx);
        let m = b.width(ys);
        let r = b.loop_for(&[ys.into(), x.into()], m, |b, i, ps| {
            let e = b.index(ps[0], &[i.into()]);
            let t = b.mul(e, ps[1]);
            let s = b.unop(UnOp::Sin, t);
            let a = b.update(ps[0], &[i.into()], s);
            let acc = b.add(ps[1], e);
            vec![a.into(), acc.into()]
        });
        vec![r[0].into(), r[1].into()]
    });
    check_dot(&f, 5, 3);
}

#[test]
fn nested_maps_and_branches() {
    let f = Fun::new(&[&[3, 4], &[4]], |b, p| {
        let (m, v) = (p[0], p[1]);
        vec![b.map(&[m], |b, row| {
            let prods = b.map(&[row[0], v], |b, q| {
                let pos = b.cmp(CmpOp::Gt, q[0], c(0.0));
                let r = b.if_(
                    pos,
                    |b| vec![b.mul(q[0], q[1]).into()],
                    |b| vec![b.unop(UnOp::Exp, q[1]).into()],
                );
                vec![r[0].into()]
            })[0];
            vec![sum(b, prods)]
        })[0]
            .into()]
    });
    check_dot(&f, 6, 3);
}

#[test]
fn vectorised_operators() {
    let f = Fun::new(&[&[4, 3], &[3]], |b, p| {
        let (xss, dst) = (p[0], p[1]);
        let ones = b.replicate(Operand::i64(3), c(1.0));
        let prod = b.reduce(true, &[xss], vec![ones.into()], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| vec![b.mul(q[0], q[1]).into()])[0].into()]
        })[0];
        let inf = b.replicate(Operand::i64(3), c(f64::NEG_INFINITY));
        let mx = b.reduce(true, &[xss], vec![inf.into()], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| {
                vec![b.binop(BinOp::Max, q[0], q[1]).into()]
            })[0]
                .into()]
        })[0];
        let n = b.width(xss);
        let is = indices(b, n, 2);
        let d = b.replicate(Operand::i64(2), dst);
        let h = b.hist(&[d], vec![ones.into()], is, &[xss], |b, x, y| {
            vec![b.map(&[x[0], y[0]], |b, q| vec![b.mul(q[0], q[1]).into()])[0].into()]
        })[0];
        vec![prod.into(), mx.into(), h.into()]
    });
    check_dot(&f, 7, 3);
}
