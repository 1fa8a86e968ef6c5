//! Forward mode on programs covering every construct, checked against
//! finite differences (and exact values where they are easy by hand).

mod harness;

use harness::*;
use parad_core::*;

fn i64c(n: i64) -> Operand {
    Operand::i64(n)
}

/// `map (\i -> f(i)) (iota n)` for an integer formula `f`.
fn index_array(b: &mut Builder, n: i64, f: impl FnOnce(&mut Builder, VName) -> VName) -> VName {
    let is = b.iota(i64c(n));
    b.map(&[is], |b, i| vec![f(b, i[0]).into()])[0]
}

#[test]
fn map_with_free_scalar() {
    // ys = map (\x -> sin x · x · c) xs, c free.
    let f = Fun::new(&[&[5], &[]], |b, p| {
        let c = p[1];
        b.map(&[p[0]], |b, x| {
            let s = b.unop(UnOp::Sin, x[0]);
            let m = b.mul(s, x[0]);
            vec![b.mul(m, c).into()]
        })
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    check_jvp_fd(&f, 1, 3);
    // Exact: the tangent along c alone is sin x · x.
    let xs = [0.1, 0.2, 0.3, 0.4, 0.5];
    let (_, ts) = jvp_at(
        &f,
        vec![f64s(&xs), scalar(2.0)],
        vec![f64s(&[0.0; 5]), scalar(1.0)],
    );
    let want: Vec<f64> = xs.iter().map(|x| x.sin() * x).collect();
    assert_close(&flat(&ts[0]), &want, 1e-15, "d/dc");
}

#[test]
fn map_of_map_with_free_array_rows() {
    // m[i][j] ↦ m[i][j]² · v[j] + exp(m[i][j]).
    let f = Fun::new(&[&[3, 4], &[4]], |b, p| {
        let v = p[1];
        b.map(&[p[0]], |b, row| {
            b.map(&[row[0], v], |b, x| {
                let sq = b.mul(x[0], x[0]);
                let t = b.mul(sq, x[1]);
                let e = b.unop(UnOp::Exp, x[0]);
                vec![b.add(t, e).into()]
            })
            .into_iter()
            .map(Operand::from)
            .collect()
        })
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    check_jvp_fd(&f, 2, 3);
}

#[test]
fn map_gathering_from_free_arrays() {
    // map (\i -> xs[i] · xs[(i+1) % n]) (iota n).
    let f = Fun::new(&[&[4]], |b, p| {
        let xs = p[0];
        let is = b.iota(i64c(4));
        b.map(&[is], |b, i| {
            let a = b.index(xs, &[i[0].into()]);
            let j = b.add(i[0], i64c(1));
            let j = b.binop(BinOp::Mod, j, i64c(4));
            let c = b.index(xs, &[j.into()]);
            vec![b.mul(a, c).into()]
        })
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    check_jvp_fd(&f, 3, 3);
}

#[test]
fn reduce_sum_of_products_is_exact() {
    // Σ x·y: tangent Σ ẋ·y + x·ẏ.
    let f = Fun::new(&[&[3], &[3]], |b, p| {
        let prods = b.map(&[p[0], p[1]], |b, r| vec![b.mul(r[0], r[1]).into()]);
        vec![b.reduce_op(BinOp::Add, &prods, vec![c(0.0)])[0].into()]
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[1.0, 2.0, 3.0]), f64s(&[4.0, 5.0, 6.0])],
        vec![f64s(&[1.0, 0.0, 1.0]), f64s(&[0.0, 1.0, 0.0])],
    );
    assert_eq!(flat(&ys[0]), vec![32.0]);
    assert_eq!(flat(&ts[0]), vec![4.0 + 6.0 + 2.0]);
    check_jvp_fd(&f, 4, 3);
}

/// The associative composition of affine maps `x ↦ a·x + b`.
fn affine(b: &mut Builder, l: &[VName], r: &[VName]) -> Vec<Operand> {
    let a = b.mul(l[0], r[0]);
    let t = b.mul(r[0], l[1]);
    let c = b.add(t, r[1]);
    vec![a.into(), c.into()]
}

#[test]
fn reduce_and_scan_with_tuple_operator() {
    let f = Fun::new(&[&[5], &[5]], |b, p| {
        let r = b.reduce(false, &[p[0], p[1]], vec![c(1.0), c(0.0)], affine);
        let s = b.scan(&[p[0], p[1]], vec![c(1.0), c(0.0)], affine);
        [r, s].concat().into_iter().map(Operand::from).collect()
    });
    check_jvp_fd(&f, 5, 3);
}

#[test]
fn reduce_argmax_carries_no_index_tangent() {
    // (max value, its index) over pairs; returns the value times 2.
    let f = Fun::new(&[&[6]], |b, p| {
        let is = b.iota(i64c(6));
        let r = b.reduce(
            true,
            &[p[0], is],
            vec![c(f64::NEG_INFINITY), i64c(-1)],
            |b, l, r| {
                let ge = b.cmp(CmpOp::Ge, l[0], r[0]);
                b.if_(
                    ge,
                    |_| vec![l[0].into(), l[1].into()],
                    |_| vec![r[0].into(), r[1].into()],
                )
                .into_iter()
                .map(Operand::from)
                .collect()
            },
        );
        let v = b.mul(r[0], c(2.0));
        vec![v.into(), r[1].into()]
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[1.0, 5.0, 2.0, 0.0, 4.0, 3.0])],
        vec![f64s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])],
    );
    assert_eq!(flat(&ys[0]), vec![10.0]);
    assert_eq!(flat(&ys[1]), vec![1.0]);
    assert_eq!(flat(&ts[0]), vec![4.0]);
    assert_eq!(flat(&ts[1]), vec![0.0]);
}

#[test]
fn scan_of_products() {
    let f = Fun::new(&[&[6]], |b, p| {
        vec![b.scan(&[p[0]], vec![c(1.0)], |b, l, r| {
            vec![b.mul(l[0], r[0]).into()]
        })[0]
            .into()]
    });
    check_jvp_fd(&f, 6, 3);
}

#[test]
fn hist_with_add_mul_and_max_into_active_destinations() {
    let f = Fun::new(&[&[3], &[7]], |b, p| {
        let inds = index_array(b, 7, |b, i| {
            let k = b.mul(i, i64c(2));
            b.binop(BinOp::Mod, k, i64c(4)) // 0, 2, 0, 2, … and bin 3 never; 1 never
        });
        let (dest, vals) = (p[0], p[1]);
        let d1 = b.copy(dest);
        let h1 = b.hist(&[d1], vec![c(0.0)], inds, &[vals], |b, l, r| {
            vec![b.add(l[0], r[0]).into()]
        });
        let d2 = b.copy(dest);
        let h2 = b.hist(&[d2], vec![c(1.0)], inds, &[vals], |b, l, r| {
            vec![b.mul(l[0], r[0]).into()]
        });
        let d3 = b.copy(dest);
        let h3 = b.hist(
            &[d3],
            vec![c(f64::NEG_INFINITY)],
            inds,
            &[vals],
            |b, l, r| vec![b.binop(BinOp::Max, l[0], r[0]).into()],
        );
        vec![h1[0].into(), h2[0].into(), h3[0].into()]
    });
    check_jvp_fd(&f, 7, 3);
}

#[test]
fn scatter_writes_value_tangents_and_keeps_the_rest() {
    // dest[1, 3] = 10·v[0, 1] (index 5 is out of bounds).
    let f = Fun::new(&[&[5], &[3]], |b, p| {
        let inds = index_array(b, 3, |b, i| {
            let k = b.mul(i, i64c(2));
            b.add(k, i64c(1))
        });
        let vals = b.map(&[p[1]], |b, v| vec![b.mul(v[0], c(10.0)).into()]);
        let d = b.copy(p[0]);
        vec![b.scatter(d, inds, vals[0]).into()]
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[1.0, 2.0, 3.0, 4.0, 5.0]), f64s(&[7.0, 8.0, 9.0])],
        vec![f64s(&[1.0, 1.0, 1.0, 1.0, 1.0]), f64s(&[0.5, 0.25, 2.0])],
    );
    assert_eq!(flat(&ys[0]), vec![1.0, 70.0, 3.0, 80.0, 5.0]);
    assert_eq!(flat(&ts[0]), vec![1.0, 5.0, 1.0, 2.5, 1.0]);
    check_jvp_fd(&f, 8, 2);
}

#[test]
fn for_loop_carrying_an_array_and_a_scalar() {
    // loop (a, s) = (xs, 0) for i < 3: a = map (\x -> x·x·0.5 + y) a; s += a[i].
    let f = Fun::new(&[&[4], &[]], |b, p| {
        let y = p[1];
        let r = b.loop_for(&[p[0].into(), c(0.0)], i64c(3), |b, i, ps| {
            let a = b.map(&[ps[0]], |b, x| {
                let sq = b.mul(x[0], x[0]);
                let h = b.mul(sq, c(0.5));
                vec![b.add(h, y).into()]
            })[0];
            let e = b.index(a, &[i.into()]);
            let s = b.add(ps[1], e);
            vec![a.into(), s.into()]
        });
        r.into_iter().map(Operand::from).collect()
    });
    check_jvp_fd(&f, 9, 3);
}

#[test]
fn loop_parameter_that_becomes_active_only_in_the_body() {
    // s starts as the constant 1 and picks up x in each iteration.
    let f = Fun::new(&[&[]], |b, p| {
        let x = p[0];
        let r = b.loop_for(&[c(1.0)], i64c(4), |b, _, ps| vec![b.mul(ps[0], x).into()]);
        vec![r[0].into()]
    });
    let (ys, ts) = jvp_at(&f, vec![scalar(1.5)], vec![scalar(1.0)]);
    assert_close(&flat(&ys[0]), &[1.5f64.powi(4)], 1e-15, "x^4");
    assert_close(&flat(&ts[0]), &[4.0 * 1.5f64.powi(3)], 1e-14, "4x^3");
}

#[test]
fn while_loop() {
    // loop (go, x, k) = (true, x0, 0) while go: x = x·1.1 + sin x; k += 1; go = k < 4.
    let f = Fun::new(&[&[]], |b, p| {
        let r = b.loop_while(&[Operand::bool(true), p[0].into(), i64c(0)], |b, ps| {
            let m = b.mul(ps[1], c(1.1));
            let s = b.unop(UnOp::Sin, ps[1]);
            let x = b.add(m, s);
            let k = b.add(ps[2], i64c(1));
            let go = b.cmp(CmpOp::Lt, k, i64c(4));
            vec![go.into(), x.into(), k.into()]
        });
        vec![r[1].into()]
    });
    check_jvp_fd(&f, 10, 3);
}

#[test]
fn if_inside_map_with_tangent_in_one_branch_only() {
    // x > 0 ? x·x : 3 (the constant branch has a zero tangent).
    let f = Fun::new(&[&[6]], |b, p| {
        b.map(&[p[0]], |b, x| {
            let pos = b.cmp(CmpOp::Gt, x[0], c(0.0));
            let x0 = x[0];
            b.if_(pos, |b| vec![b.mul(x0, x0).into()], |_| vec![c(3.0)])
                .into_iter()
                .map(Operand::from)
                .collect()
        })
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[-1.0, 2.0, 0.5, -3.0, 1.0, 4.0])],
        vec![f64s(&[1.0; 6])],
    );
    assert_eq!(flat(&ys[0]), vec![3.0, 4.0, 0.25, 3.0, 1.0, 16.0]);
    assert_eq!(flat(&ts[0]), vec![0.0, 4.0, 1.0, 0.0, 2.0, 8.0]);
}

#[test]
fn array_operations() {
    let f = Fun::new(&[&[2, 3], &[3]], |b, p| {
        let (m, v) = (p[0], p[1]);
        let t = b.transpose(m); // [3][2]
        let fl = b.flatten(t); // [6]
        let r = b.reverse(fl);
        let ro = b.rotate(i64c(2), r);
        let cat = b.concat(vec![ro, v]); // [9]
        let un = b.unflatten(cat, i64c(3), i64c(3)); // [3][3]
        let row = b.index(un, &[i64c(1)]); // [3]
        let sl = b.slice(
            un,
            vec![
                DimIndex::Slice {
                    start: i64c(2),
                    len: i64c(2),
                    stride: i64c(-1),
                },
                DimIndex::Fix(i64c(0)),
            ],
        ); // [2]
        let e = b.index(v, &[i64c(0)]);
        let sq = b.mul(e, e);
        let rep = b.replicate(i64c(2), sq);
        let cp = b.copy(row);
        let upd = b.update(cp, &[i64c(1)], sq);
        let rs = b.reshape(un, vec![i64c(9)]);
        vec![upd.into(), sl.into(), rep.into(), rs.into()]
    });
    check_jvp_fd(&f, 11, 3);
}

#[test]
fn update_into_scratch_and_iota_sized_arrays() {
    // A scratch array (zero tangent) filled from active values in a loop.
    let f = Fun::new(&[&[3]], |b, p| {
        let s = b.scratch(
            parad_base::PrimType::Float(parad_base::FloatType::F64),
            vec![i64c(3)],
        );
        let r = b.loop_for(&[s.into()], i64c(3), |b, i, ps| {
            let x = b.index(p[0], &[i.into()]);
            let e = b.unop(UnOp::Exp, x);
            vec![b.update(ps[0], &[i.into()], e).into()]
        });
        vec![r[0].into()]
    });
    check_jvp_fd(&f, 12, 3);
}

/// The derivative of `g` at `x` (tangent 1) as IR: a `jvp` node.
fn deriv(b: &mut Builder, x: Operand, g: fn(&mut Builder, VName) -> Operand) -> Operand {
    let lam = b.lambda(vec![harness::f64_type()], |b, ps| vec![g(b, ps[0])]);
    let r = b.emit(Exp::Ad(AdOp::Jvp(Jvp {
        lam,
        primals: vec![x],
        tangents: vec![c(1.0)],
    })));
    r[1].into()
}

#[test]
fn jvp_of_jvp_gives_second_derivatives() {
    // f(x) = (x³ · sin x)' ; jvp of f gives f''.
    fn g(b: &mut Builder, x: VName) -> Operand {
        let x2 = b.mul(x, x);
        let x3 = b.mul(x2, x);
        let s = b.unop(UnOp::Sin, x);
        b.mul(x3, s).into()
    }
    let f = Fun::new(&[&[]], |b, p| vec![deriv(b, p[0].into(), g)]);
    let x: f64 = 0.8;
    let (ys, ts) = jvp_at(&f, vec![scalar(x)], vec![scalar(1.0)]);
    let d1 = 3.0 * x * x * x.sin() + x.powi(3) * x.cos();
    let d2 = 6.0 * x * x.sin() + 6.0 * x * x * x.cos() - x.powi(3) * x.sin();
    assert_close(&flat(&ys[0]), &[d1], 1e-14, "f'");
    assert_close(&flat(&ts[0]), &[d2], 1e-14, "f''");
    check_jvp_fd(&f, 13, 3);
}

#[test]
fn jvp_inside_map_inside_jvp() {
    // map (\x -> d/dx (x·exp x)) xs, differentiated again.
    fn g(b: &mut Builder, x: VName) -> Operand {
        let e = b.unop(UnOp::Exp, x);
        b.mul(x, e).into()
    }
    let f = Fun::new(&[&[4]], |b, p| {
        b.map(&[p[0]], |b, x| vec![deriv(b, x[0].into(), g)])
            .into_iter()
            .map(Operand::from)
            .collect()
    });
    check_jvp_fd(&f, 14, 3);
}

#[test]
fn withacc_and_upd_accumulate_value_tangents() {
    // withacc dest (+): for each i, dest[i % 2] += x[i]²; then · 1.
    let f = Fun::new(&[&[2], &[5]], |b, p| {
        let (dest, xs) = (p[0], p[1]);
        let d = b.copy(dest);
        let op = {
            let lam = b.binop_lambda(BinOp::Add, vec![harness::f64_type()]);
            AccOp {
                lam,
                neutral: vec![c(0.0)],
            }
        };
        let input = AccInput {
            ispace: vec![i64c(2)],
            arrs: vec![d],
            op: Some(op),
        };
        let r = b.withacc(vec![input], |b, accs| {
            let acc = accs[0];
            let is = b.iota(i64c(5));
            let m = b.map(&[is, xs], |b, r| {
                let k = b.binop(BinOp::Mod, r[0], i64c(2));
                let sq = b.mul(r[1], r[1]);
                let _ = k;
                vec![sq.into()]
            });
            // Sequential updates through a loop over the squares.
            let out = b.loop_for(&[acc.into()], i64c(5), |b, i, ps| {
                let k = b.binop(BinOp::Mod, i, i64c(2));
                let v = b.index(m[0], &[i.into()]);
                vec![b.upd(ps[0], vec![k.into()], vec![v.into()]).into()]
            });
            vec![out[0].into()]
        });
        vec![r[0].into()]
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[1.0, 2.0]), f64s(&[1.0, 2.0, 3.0, 4.0, 5.0])],
        vec![f64s(&[1.0, 0.0]), f64s(&[1.0, 1.0, 1.0, 1.0, 1.0])],
    );
    assert_eq!(flat(&ys[0]), vec![1.0 + 1.0 + 9.0 + 25.0, 2.0 + 4.0 + 16.0]);
    assert_eq!(flat(&ts[0]), vec![1.0 + 2.0 + 6.0 + 10.0, 4.0 + 8.0]);
    check_jvp_fd(&f, 15, 2);
}

#[test]
fn map_over_an_accumulator() {
    // withacc dest (no operator: overwrite): map (\i x acc -> upd acc[i] (x·3)).
    let f = Fun::new(&[&[3]], |b, p| {
        let d = b.scratch(
            parad_base::PrimType::Float(parad_base::FloatType::F64),
            vec![i64c(3)],
        );
        let input = AccInput {
            ispace: vec![i64c(3)],
            arrs: vec![d],
            op: None,
        };
        let xs = p[0];
        let r = b.withacc(vec![input], |b, accs| {
            let is = b.iota(i64c(3));
            let accs_arr = accs[0];
            let out = b.map(&[is, xs, accs_arr], |b, r| {
                let v = b.mul(r[1], c(3.0));
                vec![b.upd(r[2], vec![r[0].into()], vec![v.into()]).into()]
            });
            vec![out[0].into()]
        });
        vec![r[0].into()]
    });
    let (ys, ts) = jvp_at(
        &f,
        vec![f64s(&[1.0, 2.0, 3.0])],
        vec![f64s(&[1.0, 0.5, 0.0])],
    );
    assert_eq!(flat(&ys[0]), vec![3.0, 6.0, 9.0]);
    assert_eq!(flat(&ts[0]), vec![3.0, 1.5, 0.0]);
}

/// Every `map` in the program's functions, innermost included.
fn maps(p: &Program) -> Vec<(usize, usize)> {
    let mut out = vec![];
    parad_core::walk::stms(p, |s| {
        if let Exp::Soac(Soac::Map(Map { lam, arrs, .. })) = &s.exp {
            out.push((arrs.len(), lam.ret.len()))
        }
    });
    out
}

#[test]
fn arrays_without_tangents_are_not_carried_into_maps() {
    // jvp (\x -> map (\a -> a·x) as) with `as` free: the map takes only
    // `as` and returns the product and its tangent.
    let mut pb = ProgramBuilder::new();
    let xs = pb.param("as", harness::f64_type().array_of(3).unwrap());
    let x = pb.param("x", harness::f64_type());
    let (xs_n, x_n) = (xs.name, x.name);
    let ret = vec![
        harness::f64_type().array_of(Dim::Ext).unwrap(),
        harness::f64_type().array_of(Dim::Ext).unwrap(),
    ];
    let f = pb.function("main", vec![xs, x], ret, |b| {
        let lam = b.lambda(vec![harness::f64_type()], |b, p| {
            let y = p[0];
            vec![b.map(&[xs_n], |b, a| vec![b.mul(a[0], y).into()])[0].into()]
        });
        b.emit(Exp::Ad(AdOp::Jvp(Jvp {
            lam,
            primals: vec![x_n.into()],
            tangents: vec![c(1.0)],
        })))
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    pb.entry("main", f);
    let p = expand(pb.finish());
    assert_eq!(maps(&p), vec![(1, 2)]);
    let r = run(&p, "main", vec![f64s(&[1.0, 2.0, 3.0]), scalar(2.0)]);
    assert_eq!(flat(&r[0]), vec![2.0, 4.0, 6.0]);
    assert_eq!(flat(&r[1]), vec![1.0, 2.0, 3.0]);
}

#[test]
fn calls_with_active_arguments_are_reported_not_panicked() {
    let mut pb = ProgramBuilder::new();
    let y = pb.param("y", harness::f64_type());
    let yn = y.name;
    pb.function("g", vec![y], vec![harness::f64_type()], |b| {
        vec![b.mul(yn, yn).into()]
    });
    let x = pb.param("x", harness::f64_type());
    let xn = x.name;
    let ret = vec![harness::f64_type(), harness::f64_type()];
    let f = pb.function("main", vec![x], ret, |b| {
        let lam = b.lambda(vec![harness::f64_type()], |b, p| {
            vec![b.apply("g", vec![p[0].into()])[0].into()]
        });
        b.emit(Exp::Ad(AdOp::Jvp(Jvp {
            lam,
            primals: vec![xn.into()],
            tangents: vec![c(1.0)],
        })))
        .into_iter()
        .map(Operand::from)
        .collect()
    });
    pb.entry("main", f);
    let mut p = pb.finish();
    let e = parad_ad::differentiate(&mut p).unwrap_err();
    assert!(
        e.message.contains("recursive function 'g'"),
        "{}",
        e.message
    );
}

#[test]
fn vectorised_reduce_and_hist_on_rows() {
    // reduce (map2 (·)) ones rows, and hist of rows into 2 bins with map2 (+).
    let f = Fun::new(&[&[4, 3]], |b, p| {
        let one = b.replicate(i64c(3), c(1.0));
        let r = b.reduce(false, &[p[0]], vec![one.into()], |b, l, r| {
            vec![b.map(&[l[0], r[0]], |b, q| vec![b.mul(q[0], q[1]).into()])[0].into()]
        });
        let zero = b.replicate(i64c(3), c(0.0));
        let z2 = b.replicate(i64c(2), zero);
        let inds = index_array(b, 4, |b, i| b.binop(BinOp::Mod, i, i64c(2)));
        let h = b.hist(&[z2], vec![zero.into()], inds, &[p[0]], |b, l, r| {
            vec![b.map(&[l[0], r[0]], |b, q| vec![b.add(q[0], q[1]).into()])[0].into()]
        });
        vec![r[0].into(), h[0].into()]
    });
    check_jvp_fd(&f, 16, 3);
}
