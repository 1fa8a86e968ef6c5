//! The constraint systems of the thesis' examples, built by hand as the type
//! checker will build them, with the expected solutions.
//!
//! Conventions: `(+)`, `(*)`, `sqrt` are monomorphic on a scalar type (rank
//! 0); an application `e1 e2` with `e1 : S1 (τ1 → τ2)`, `e2 : S2 τ3` gives
//! `M + |S1| + |τ1| = R + |S2| + |τ3|` and a result of rank `M + |S1| +
//! |τ2|`.

use super::*;
use std::time::Instant;

fn opts(objective: Objective) -> SolveOptions {
    // (Every test solves through `solve_with`, which compares with the ILP
    // alone.)
    SolveOptions {
        objective,
        ..Default::default()
    }
}

fn solve(sys: &RankSystem) -> SolveResult {
    solve_with(sys, SolveOptions::default())
}

/// Solves with and without local solving, which must agree (the ILP alone
/// decides the same), and returns the result with it.
fn solve_with(sys: &RankSystem, opts: SolveOptions) -> SolveResult {
    let ilp_only = sys.solve(&SolveOptions {
        local_solving: false,
        ..opts.clone()
    });
    let r = sys.solve(&opts);
    // Determinism: the same system solves the same way.
    let again = sys.solve(&opts);
    assert_eq!(format!("{:?}", r.outcome), format!("{:?}", again.outcome));
    match (&r.outcome, &ilp_only.outcome) {
        (Outcome::Unique(a), Outcome::Unique(b)) => assert_eq!(a, b),
        (Outcome::Ambiguous(a), Outcome::Ambiguous(b)) => {
            assert_eq!(a.first.cost(), b.first.cost())
        }
        (Outcome::Infeasible, Outcome::Infeasible) => {}
        (a, b) => panic!("local solving changed the outcome: {a:?} against {b:?}"),
    }
    assert_eq!(r.stats.constraints, ilp_only.stats.constraints);
    r
}

fn unique(r: &SolveResult) -> &Solution {
    match &r.outcome {
        Outcome::Unique(s) => s,
        o => panic!("expected a unique solution, got {o:?}"),
    }
}

fn ambiguous(r: &SolveResult) -> &Ambiguity {
    match &r.outcome {
        Outcome::Ambiguous(a) => a,
        o => panic!("expected an ambiguity, got {o:?}"),
    }
}

fn infeasible(r: &SolveResult) {
    assert!(
        matches!(r.outcome, Outcome::Infeasible),
        "expected infeasible, got {:?}",
        r.outcome
    );
}

/// `f a` with `f : scalar → τ` unmapped (frame 0) and `a` of rank `arg`:
/// `M = R + arg`. Returns the application and the rank of its result frame.
fn app1(sys: &RankSystem, arg: RankExpr) -> (AppId, RankSystem) {
    let mut sys = sys.clone();
    let a = sys.add_app(0);
    sys.equate(sys.maps(a), sys.reps(a) + arg);
    (a, sys)
}

/// `op x y` for a binary operator on scalars, curried: `op x` (frame 0)
/// then `(op x) y` (frame `M1`). Returns both applications and the rank of
/// the result (`M1 + M2`).
fn binop(sys: &mut RankSystem, x: RankExpr, y: RankExpr) -> (AppId, AppId, RankExpr) {
    let a1 = sys.add_app(0);
    sys.equate(sys.maps(a1), sys.reps(a1) + x);
    let a2 = sys.add_app(sys.maps(a1));
    sys.equate(sys.maps(a2) + sys.maps(a1), sys.reps(a2) + y);
    let result = sys.maps(a1) + sys.maps(a2);
    (a1, a2, result)
}

fn c(n: i64) -> RankExpr {
    RankExpr::constant(n)
}

/// `M`, `R` of every application.
fn mr(s: &Solution) -> Vec<(i64, i64)> {
    s.app_values().map(|(_, m, r)| (m, r)).collect()
}

#[test]
fn rank_expr_normalises() {
    let mut sys = RankSystem::new();
    let a = sys.add_app(0);
    let al = sys.assoc();
    let (m, r) = (sys.maps(a), sys.reps(a));
    let e = (m + 1) - m;
    assert_eq!(e, c(1));
    assert_eq!(e.as_constant(), Some(1));
    let e = m + al * 1 + al - r - 3;
    assert_eq!(sys.show(&e), "M0 - R0 + 2*a2 - 3");
    assert_eq!(sys.show(&-(RankExpr::var(r))), "-R0");
    assert_eq!(e.eval(|v| v.index() as i64 + 1), 1 - 2 + 6 - 3);
    sys.equate(m, r + 1);
    assert_eq!(sys.to_string(), "app 0: M0 ∨ R0, frame 0\nM0 = R0 + 1\n");
}

#[test]
fn empty_system_is_unique_without_solving() {
    let r = solve(&RankSystem::new());
    assert_eq!(unique(&r).size(), 0);
    assert_eq!(r.stats.solves, 0);
}

/// `sqrt [1,2,3]`: `M = R + 1` ⇒ M = 1, R = 0: `map sqrt [1,2,3]`.
#[test]
fn sqrt_of_vector() {
    let (a, sys) = app1(&RankSystem::new(), c(1));
    for obj in [Objective::InducedRepsFree, Objective::Formal] {
        let r = solve_with(&sys, opts(obj));
        let s = unique(&r);
        assert_eq!((s.maps(a), s.reps(a)), (1, 0));
        assert_eq!((s.size(), s.cost()), (1, 1));
        assert_eq!(
            r.stats,
            IlpStats {
                applications: 1,
                rank_vars: 2,
                equalities: 1,
                variables: 4,
                constraints: 6,
                // Forced by local solving: no ILP.
                forced: 2,
                parts: 0,
                largest_part_variables: 0,
                largest_part_constraints: 0,
                solves: 0,
            }
        );
    }
}

/// `xs + 1`: `(+) xs` gets M1 = 1 (frame of the chain becomes `[]`), then
/// `((+) xs) 1` gets R2 = 1, induced by that frame: `map (λx → x + 1) xs`,
/// formally `map2 (+) xs (rep 1)`.
#[test]
fn vector_plus_scalar() {
    let mut sys = RankSystem::new();
    let (a1, a2, res) = binop(&mut sys, c(1), c(0));
    let r = solve(&sys);
    let s = unique(&r);
    assert_eq!(mr(s), [(1, 0), (0, 1)]);
    assert_eq!((s.induced_reps(a2), s.materialised_reps(a2)), (1, 0));
    assert_eq!(s.frame(a2), 1);
    assert_eq!(s.frame(a1), 0);
    assert_eq!((s.size(), s.cost()), (2, 1));
    assert_eq!(s.eval(&res), 1);
    // The formal objective has the same unique optimum, at size 2.
    let r = solve_with(&sys, opts(Objective::Formal));
    let s = unique(&r);
    assert_eq!(mr(s), [(1, 0), (0, 1)]);
    assert_eq!(s.cost(), 2);
}

/// `1 + xs`: `(+) 1` needs nothing, `((+) 1) xs` gets M2 = 1:
/// `map ((+) 1) xs`.
#[test]
fn scalar_plus_vector() {
    let mut sys = RankSystem::new();
    let (_, _, res) = binop(&mut sys, c(0), c(1));
    let s = unique(&solve(&sys)).clone();
    assert_eq!(mr(&s), [(0, 0), (1, 0)]);
    assert_eq!(s.eval(&res), 1);
}

/// `+` at a type variable `α` that is not restricted to scalars: `xs + 1`
/// could also be `xs + rep 1` with `α = []i32`, at the same cost, so the
/// caller must pin `ᾱ = 0` for numeric type classes.
#[test]
fn xs_plus_one_numeric_class() {
    let build = |pin: bool| {
        let mut sys = RankSystem::new();
        let al = sys.assoc();
        let a1 = sys.add_app(0);
        sys.equate(sys.maps(a1) + al, sys.reps(a1) + 1);
        let a2 = sys.add_app(sys.maps(a1));
        sys.equate(sys.maps(a2) + sys.maps(a1) + al, sys.reps(a2));
        if pin {
            sys.equate(al, 0);
        }
        (sys, al, a1)
    };
    let (sys, al, a1) = build(false);
    let r = solve(&sys);
    let amb = ambiguous(&r);
    assert_eq!(amb.differing, [a1]);
    let mut alts = [
        (mr(&amb.first), amb.first.value(al)),
        (mr(&amb.second), amb.second.value(al)),
    ];
    alts.sort();
    assert_eq!(alts, [(vec![(0, 0), (0, 1)], 1), (vec![(1, 0), (0, 1)], 0)]);
    assert_eq!((amb.first.cost(), amb.second.cost()), (1, 1));
    // The formal objective prefers `xs + rep 1` (size 1 against 2).
    let r = solve_with(&sys, opts(Objective::Formal));
    let s = unique(&r);
    assert_eq!((mr(s), s.value(al)), (vec![(0, 0), (0, 1)], 1));

    let (sys, al, _) = build(true);
    let s = unique(&solve(&sys)).clone();
    assert_eq!((mr(&s), s.value(al)), (vec![(1, 0), (0, 1)], 0));
}

/// `[1,2,3] + [4,5,6]`: M1 = 1, then `M2 + 1 = R2 + 1` ⇒ 0, 0:
/// `map2 (+) xs ys`.
#[test]
fn vector_plus_vector() {
    let mut sys = RankSystem::new();
    let (_, _, res) = binop(&mut sys, c(1), c(1));
    for obj in [Objective::InducedRepsFree, Objective::Formal] {
        let s = unique(&solve_with(&sys, opts(obj))).clone();
        assert_eq!(mr(&s), [(1, 0), (0, 0)]);
        assert_eq!((s.cost(), s.eval(&res)), (1, 1));
    }
}

/// A 3-D array times a scalar: `map (map (map (· c))) A`, the three
/// replicates of `c` all induced.
#[test]
fn tensor_times_scalar() {
    let mut sys = RankSystem::new();
    let (_, a2, res) = binop(&mut sys, c(3), c(0));
    let s = unique(&solve(&sys)).clone();
    assert_eq!(mr(&s), [(3, 0), (0, 3)]);
    assert_eq!((s.induced_reps(a2), s.size(), s.cost()), (3, 6, 3));
    assert_eq!(s.eval(&res), 3);
}

/// A vector plus a matrix: `map (λrow → map2 (+) v row) A`.
#[test]
fn vector_plus_matrix() {
    let mut sys = RankSystem::new();
    let (_, _, res) = binop(&mut sys, c(1), c(2));
    let s = unique(&solve(&sys)).clone();
    assert_eq!(mr(&s), [(1, 0), (1, 0)]);
    assert_eq!((s.cost(), s.eval(&res)), (2, 2));
}

/// `L : f64 → f64 → f64 → f64` applied to vector/scalar mixes (thesis
/// §4.2.2): `L vs ws t ⇒ map3 L vs ws (rep t)`, `L vs ws ts ⇒ map3 L vs ws
/// ts`, `L v w ts ⇒ map (L v w) ts`.
#[test]
fn lerp_mixes() {
    let lerp = |ranks: [i64; 3]| {
        let mut sys = RankSystem::new();
        let mut frame = RankExpr::zero();
        for k in ranks {
            let a = sys.add_app(frame.clone());
            sys.equate(sys.maps(a) + frame.clone(), sys.reps(a) + k);
            frame = frame + sys.maps(a);
        }
        let s = unique(&solve(&sys)).clone();
        (mr(&s), s.cost(), s.eval(&frame))
    };
    assert_eq!(lerp([1, 1, 0]), (vec![(1, 0), (0, 0), (0, 1)], 1, 1));
    assert_eq!(lerp([1, 1, 1]), (vec![(1, 0), (0, 0), (0, 0)], 1, 1));
    assert_eq!(lerp([0, 0, 1]), (vec![(0, 0), (0, 0), (1, 0)], 1, 1));
    assert_eq!(lerp([0, 0, 0]), (vec![(0, 0), (0, 0), (0, 0)], 0, 0));
}

/// `i64.sum (length xss)`, `xss : [][]i64`, `length : []α → i64`,
/// `sum : []i64 → i64` (thesis Fig. 4.10): `M1 + 1 + ᾱ = R1 + 2`,
/// `M2 + 1 = R2 + M1`. Two optima of size 1: `sum (map length xss)` and
/// `sum (rep (length xss))` with `α = []i64`.
#[test]
fn sum_length_is_ambiguous() {
    let mut sys = RankSystem::new();
    let al = sys.assoc();
    let a1 = sys.add_app(0);
    sys.equate(sys.maps(a1) + 1 + al, sys.reps(a1) + 2);
    let a2 = sys.add_app(0);
    sys.equate(sys.maps(a2) + 1, sys.reps(a2) + sys.maps(a1));
    for obj in [Objective::InducedRepsFree, Objective::Formal] {
        let r = solve_with(&sys, opts(obj));
        let amb = ambiguous(&r);
        assert_eq!(amb.differing, [a1, a2]);
        let mut alts = [
            (mr(&amb.first), amb.first.value(al)),
            (mr(&amb.second), amb.second.value(al)),
        ];
        alts.sort();
        assert_eq!(alts, [(vec![(0, 0), (0, 1)], 1), (vec![(1, 0), (0, 0)], 0)]);
        assert_eq!((amb.first.cost(), amb.second.cost()), (1, 1));
    }
}

/// `{M ∨ R, M + ᾱ = R + 2}`: ambiguous at size 1 (M = 1, ᾱ = 1 or R = 1,
/// ᾱ = 3) but only the optimum matters, and the size-0 solution ᾱ = 2 is
/// unique.
#[test]
fn only_the_optimum_matters() {
    let mut sys = RankSystem::new();
    let al = sys.assoc();
    let a = sys.add_app(0);
    sys.equate(sys.maps(a) + al, sys.reps(a) + 2);
    for obj in [Objective::InducedRepsFree, Objective::Formal] {
        let r = solve_with(&sys, opts(obj));
        let s = unique(&r);
        assert_eq!((s.maps(a), s.reps(a), s.value(al), s.cost()), (0, 0, 2, 0));
        // Size 0: no check on counts; one solve for the associated ranks.
        assert_eq!(r.stats.solves, 3);
    }
    // Forcing size 1 with maps (ᾱ ≤ 1) leaves one solution, M = 1, ᾱ = 1.
    let mut forced = sys.clone();
    let b = forced.assoc();
    forced.equate(al + b, 1);
    let s = unique(&solve(&forced)).clone();
    assert_eq!((s.maps(a), s.reps(a), s.value(al)), (1, 0, 1));
}

/// A program without rank mismatches: `f x (g y)` on scalars and `id xs`
/// with `id : α → α` — the unique size-0 solution, `ᾱ = 1`.
#[test]
fn no_mismatch_is_size_zero() {
    let mut sys = RankSystem::new();
    // g y
    let g = sys.add_app(0);
    sys.equate(sys.maps(g), sys.reps(g));
    // f x
    let f1 = sys.add_app(0);
    sys.equate(sys.maps(f1), sys.reps(f1));
    // (f x) (g y): the argument's frame is g's M.
    let f2 = sys.add_app(sys.maps(f1));
    sys.equate(sys.maps(f2) + sys.maps(f1), sys.reps(f2) + sys.maps(g));
    // id xs
    let al = sys.assoc();
    let id = sys.add_app(0);
    sys.equate(sys.maps(id) + al, sys.reps(id) + 1);
    let r = solve(&sys);
    let s = unique(&r);
    assert_eq!(mr(s), [(0, 0); 4]);
    assert_eq!((s.cost(), s.value(al)), (0, 1));
}

/// Associated ranks are the least that fit: free ones are 0, and
/// `ᾱ = β̄ + 2` gives `β̄ = 0`.
#[test]
fn least_associated_ranks() {
    let mut sys = RankSystem::new();
    let free = sys.assoc();
    let al = sys.assoc();
    let be = sys.assoc();
    let ga = sys.assoc();
    let de = sys.assoc();
    sys.equate(al, be + 2);
    sys.equate(ga, de);
    let s = unique(&solve(&sys)).clone();
    assert_eq!([free, al, be, ga, de].map(|v| s.value(v)), [0, 2, 0, 0, 0]);
}

/// Rank errors: an array literal `[1, [2]]` (`0 = 1`), an annotation
/// `(sqrt xs : f64)` (`M = R + 1`, `M = 0`), a mismatch that only maps and
/// replicates together could fix (Rule 2), and one beyond the bound.
#[test]
fn infeasible_systems() {
    let mut sys = RankSystem::new();
    sys.equate(0, 1);
    let r = solve(&sys);
    infeasible(&r);
    assert_eq!(r.stats.solves, 0);

    let (a, mut sys) = app1(&RankSystem::new(), c(1));
    sys.equate(sys.maps(a), 0);
    infeasible(&solve(&sys));

    let (a, mut sys) = app1(&RankSystem::new(), c(1));
    sys.equate(sys.reps(a), 1);
    infeasible(&solve(&sys));

    let (_, sys) = app1(&RankSystem::new(), c(i64::from(DEFAULT_BOUND) + 1));
    infeasible(&solve(&sys));
    let (a, sys) = app1(&RankSystem::new(), c(i64::from(DEFAULT_BOUND)));
    assert_eq!(unique(&solve(&sys)).maps(a), i64::from(DEFAULT_BOUND));
}

/// `map (λy → xs · y) ys`, `xs, ys : []i32`, with `map : (α' → β') → []α'
/// → []β'` a flexible application (thesis §4.8): formally two size-2
/// elaborations, `map (λy → map2 (·) xs (rep y)) ys` and
/// `map (λy → map2 (·) xs y) (rep ys)`; with induced replicates free only
/// the first costs 1: an outer product.
#[test]
fn outer_product_needs_free_induced_reps() {
    let mut sys = RankSystem::new();
    let y = sys.assoc(); // the lambda's parameter type α
    let (a1, a2, body) = binop(&mut sys, c(1), RankExpr::var(y));
    let al2 = sys.assoc(); // α' of map
    let be2 = sys.assoc(); // β' of map
                           // map (λy → …): function types have rank 0, so `M3 = R3`; the
                           // structural equalities of `α' → β' ≐ α → [body] i32` are the caller's.
    let a3 = sys.add_app(0);
    sys.equate(sys.maps(a3), sys.reps(a3));
    sys.equate(al2, y);
    sys.equate(be2, body);
    // (map f) ys: the parameter `[]α'` against `ys : []i32`.
    let a4 = sys.add_app(sys.maps(a3));
    sys.equate(sys.maps(a4) + sys.maps(a3) + 1 + al2, sys.reps(a4) + 1);
    let r = solve(&sys);
    let s = unique(&r);
    assert_eq!(mr(s), [(1, 0), (0, 1), (0, 0), (0, 0)]);
    assert_eq!((s.induced_reps(a2), s.cost(), s.size()), (1, 1, 2));
    assert_eq!((s.value(y), s.value(be2)), (0, 1));

    let r = solve_with(&sys, opts(Objective::Formal));
    let amb = ambiguous(&r);
    assert_eq!(amb.differing, [a2, a4]);
    let mut alts = [mr(&amb.first), mr(&amb.second)];
    alts.sort();
    assert_eq!(
        alts,
        [
            vec![(1, 0), (0, 0), (0, 0), (0, 1)],
            vec![(1, 0), (0, 1), (0, 0), (0, 0)]
        ]
    );
    let _ = a1;
}

/// The function-type caution: `app f x`, `app : (γ → δ) → γ → δ`,
/// `f : i32 → i32`, `x : []i32`. With only the relaxation of the thesis the
/// optimum is size 0 with `γ̄ = 1` (which unification then rejects); with
/// the structural equalities of `γ → δ ≐ i32 → i32` it is `map (app f) x`.
#[test]
fn caution_function_types_structural() {
    let build = |structural: bool| {
        let mut sys = RankSystem::new();
        let ga = sys.assoc();
        let de = sys.assoc();
        let a1 = sys.add_app(0); // app f: 0 = 0 on function types
        sys.equate(sys.maps(a1), sys.reps(a1));
        if structural {
            sys.equate(ga, 0);
            sys.equate(de, 0);
        }
        let a2 = sys.add_app(sys.maps(a1)); // (app f) x
        sys.equate(sys.maps(a2) + sys.maps(a1) + ga, sys.reps(a2) + 1);
        (sys, ga, a2)
    };
    let (sys, ga, _) = build(false);
    let s = unique(&solve(&sys)).clone();
    assert_eq!((mr(&s), s.value(ga)), (vec![(0, 0), (0, 0)], 1));

    let (sys, ga, a2) = build(true);
    let s = unique(&solve(&sys)).clone();
    assert_eq!((mr(&s), s.value(ga)), (vec![(0, 0), (1, 0)], 0));
    assert_eq!(s.maps(a2), 1);
}

/// `pipe (indices A) f`, `pipe : α → (α → β) → β`, `f : i64 → i64` (the
/// thesis' §4.10 ambiguity). With the structural equalities of
/// `α → β ≐ i64 → i64` (`ᾱ = 0`, `β̄ = 0`) the only optimum maps over the
/// indices, `f` captured: `map (λx → pipe x f) (indices A)`, cost 1.
#[test]
fn pipe_with_structural_function_ranks() {
    let mut sys = RankSystem::new();
    let al = sys.assoc();
    let be = sys.assoc();
    let a1 = sys.add_app(0); // pipe (indices A)
    sys.equate(sys.maps(a1) + al, sys.reps(a1) + 1);
    let a2 = sys.add_app(sys.maps(a1)); // (pipe …) f: function types
    sys.equate(sys.maps(a2) + sys.maps(a1), sys.reps(a2));
    sys.equate(al, 0);
    sys.equate(be, 0);
    let r = solve(&sys);
    let s = unique(&r);
    assert_eq!(mr(s), [(1, 0), (0, 1)]);
    assert_eq!((s.induced_reps(a2), s.cost()), (1, 1));
}

/// Two optima with the same places but different counts: a frame of 2 and
/// an argument of rank `ᾱ ∈ {0, 1}` give R ∈ {1, 2}, both induced and free.
/// The check on the binaries alone misses it.
#[test]
fn ambiguity_in_counts_needs_the_exact_check() {
    let mut sys = RankSystem::new();
    let al = sys.assoc();
    let ga = sys.assoc();
    let a = sys.add_app(2);
    sys.equate(sys.maps(a) + 2, sys.reps(a) + al);
    sys.equate(al + ga, 1);
    let r = solve(&sys);
    let amb = ambiguous(&r);
    assert_eq!(amb.differing, [a]);
    let mut rs = [amb.first.reps(a), amb.second.reps(a)];
    rs.sort();
    assert_eq!(rs, [1, 2]);
    assert_eq!((amb.first.cost(), amb.second.cost()), (0, 0));

    let binaries_only = SolveOptions {
        exact_ambiguity: false,
        ..Default::default()
    };
    assert!(matches!(
        solve_with(&sys, binaries_only).outcome,
        Outcome::Unique(_)
    ));
}

/// Scaling: `t0 + t1 + … + t150` left-associated, 300 applications, the
/// terms of rank 0, 1 or 2 in a fixed pattern. The accumulated rank is the
/// running maximum; each `+` costs the larger rank of its operands (maps
/// over the left, then maps or free induced replicates for the right).
/// Local solving forces every rank (0.13 ms in a release build, no ILP;
/// 30 000 applications take 16 ms); the ILP alone, which `solve_with`
/// runs for comparison, takes about 1 s (three solves of 1 950 rows).
#[test]
fn three_hundred_applications() {
    let ranks: Vec<i64> = (0..151).map(|i| [0, 1, 0, 2, 1, 0, 0][i % 7]).collect();
    let mut sys = RankSystem::new();
    let mut acc = c(ranks[0]);
    let mut apps = Vec::new();
    for &k in &ranks[1..] {
        let (a1, a2, res) = binop(&mut sys, acc, c(k));
        apps.push((a1, a2));
        acc = res;
    }
    assert_eq!(sys.num_apps(), 300);
    let t = Instant::now();
    let r = solve(&sys);
    let elapsed = t.elapsed();
    let s = unique(&r);
    let mut left = ranks[0];
    let mut cost = 0;
    for (&(a1, a2), &k) in apps.iter().zip(&ranks[1..]) {
        assert_eq!((s.maps(a1), s.reps(a1)), (left, 0));
        if k >= left {
            assert_eq!((s.maps(a2), s.reps(a2)), (k - left, 0));
        } else {
            assert_eq!((s.maps(a2), s.reps(a2)), (0, left - k));
            assert_eq!(s.materialised_reps(a2), 0);
        }
        cost += left.max(k);
        left = left.max(k);
    }
    assert_eq!(s.cost(), cost);
    assert_eq!(s.eval(&acc), 2);
    assert_eq!(r.stats.applications, 300);
    assert_eq!(r.stats.constraints, 300 + 300 * 5 + 150);
    eprintln!("300 applications: {:?}, {:?}", elapsed, r.stats);
}

/// `id (id (… (id xs)))` 300 times, `id : α → α` instantiated afresh at
/// each use: every equality has an unknown `ᾱ`, so nothing is forced and
/// the ILP solves one part of 1 500 variables and 1 800 constraints (about
/// 40 ms in a release build for the optimum, the check and the associated
/// ranks). The unique optimum is size 0 with every `ᾱ = 1`.
#[test]
fn three_hundred_polymorphic_applications() {
    let mut sys = RankSystem::new();
    let mut arg = c(1);
    let mut vars = Vec::new();
    for _ in 0..300 {
        let al = sys.assoc();
        let a = sys.add_app(0);
        sys.equate(sys.maps(a) + al, sys.reps(a) + arg);
        arg = sys.maps(a) + al;
        vars.push((a, al));
    }
    let r = sys.solve(&SolveOptions::default());
    let s = unique(&r);
    for &(a, al) in &vars {
        assert_eq!((s.maps(a), s.reps(a), s.value(al)), (0, 0, 1));
    }
    assert_eq!(
        (
            r.stats.forced,
            r.stats.parts,
            r.stats.largest_part_constraints
        ),
        (0, 1, 1800)
    );
    // With the innermost instance pinned to scalars (`ᾱ = 0`, say by an
    // annotation), the vector needs one map, at the innermost application.
    let mut sys2 = sys.clone();
    sys2.equate(arg.clone(), 1);
    sys2.equate(vars[0].1, 0);
    let s = unique(&sys2.solve(&SolveOptions::default())).clone();
    assert_eq!((s.maps(vars[0].0), s.cost()), (1, 1));
}

/// Timings of larger systems: `cargo test --release -p parad-types
/// scaling_experiment -- --ignored --nocapture`.
#[test]
#[ignore]
fn scaling_experiment() {
    for n in [150usize, 1500, 15000] {
        let ranks: Vec<i64> = (0..n + 1).map(|i| [0, 1, 0, 2, 1, 0, 0][i % 7]).collect();
        let mut sys = RankSystem::new();
        let mut acc = c(ranks[0]);
        for &k in &ranks[1..] {
            let (_, _, res) = binop(&mut sys, acc, c(k));
            acc = res;
        }
        let t = Instant::now();
        let r = sys.solve(&SolveOptions::default());
        eprintln!("arith {} apps: {:?} {:?}", 2 * n, t.elapsed(), r.stats);
    }
    // id (id (… (id xs))): every application has an unknown ᾱ.
    for n in [10usize, 30, 100, 300] {
        let mut sys = RankSystem::new();
        let mut arg = c(1);
        for _ in 0..n {
            let al = sys.assoc();
            let a = sys.add_app(0);
            sys.equate(sys.maps(a) + al, sys.reps(a) + arg);
            arg = sys.maps(a) + al;
        }
        let t = Instant::now();
        let r = sys.solve(&SolveOptions::default());
        let ok = matches!(r.outcome, Outcome::Unique(_));
        eprintln!("id chain {n}: {:?} unique={ok} {:?}", t.elapsed(), r.stats);
    }
}

/// Random small systems of the shape the type checker generates, against
/// brute force over every assignment within a bound of 3: the solver (with
/// and without local solving, both objectives) must find the optimum,
/// report ambiguity exactly when two optima differ in some `M`/`R`, give
/// the least associated ranks, and report infeasibility exactly when
/// nothing fits.
#[test]
fn random_systems_against_brute_force() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rnd = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    const U: i64 = 3;
    let mut seen = [0usize; 3];
    for _ in 0..400 {
        let mut sys = RankSystem::new();
        let n_assoc = rnd(3) as usize;
        let assoc: Vec<RankVar> = (0..n_assoc).map(|_| sys.assoc()).collect();
        let n_apps = 1 + rnd(3) as usize;
        let mut maps: Vec<RankVar> = Vec::new();
        // A rank: a constant plus maybe an associated rank plus maybe an
        // earlier application's maps (the frame of a result).
        let rank = |sys: &RankSystem, maps: &[RankVar], rnd: &mut dyn FnMut(u64) -> u64| {
            let mut e = c(rnd(3) as i64);
            if !assoc.is_empty() && rnd(2) == 0 {
                e = e + assoc[rnd(assoc.len() as u64) as usize];
            }
            if !maps.is_empty() && rnd(3) == 0 {
                e = e + maps[rnd(maps.len() as u64) as usize];
            }
            let _ = sys;
            e
        };
        for _ in 0..n_apps {
            let frame = if !maps.is_empty() && rnd(2) == 0 {
                RankExpr::var(maps[rnd(maps.len() as u64) as usize])
            } else {
                c(0)
            };
            let p = rank(&sys, &maps, &mut rnd);
            let q = rank(&sys, &maps, &mut rnd);
            let a = sys.add_app(frame.clone());
            sys.equate(sys.maps(a) + frame + p, sys.reps(a) + q);
            maps.push(sys.maps(a));
        }
        if rnd(4) == 0 && !assoc.is_empty() {
            sys.equate(assoc[0], rnd(3) as i64);
        }
        for obj in [Objective::InducedRepsFree, Objective::Formal] {
            // Brute force.
            let n = sys.num_vars();
            let mut best: Option<i64> = None;
            let mut optima: Vec<(Vec<(i64, i64)>, i64)> = Vec::new();
            let mut vals = vec![0i64; n];
            'all: loop {
                let value = |v: RankVar| vals[v.index()];
                let ok = sys
                    .equalities()
                    .iter()
                    .all(|(l, r)| l.eval(value) == r.eval(value))
                    && sys
                        .apps()
                        .all(|(_, a)| value(a.maps) == 0 || value(a.reps) == 0);
                if ok {
                    let cost: i64 = sys
                        .apps()
                        .map(|(_, a)| {
                            value(a.maps)
                                + match obj {
                                    Objective::Formal => value(a.reps),
                                    Objective::InducedRepsFree => {
                                        (value(a.reps) - a.frame.eval(value)).max(0)
                                    }
                                }
                        })
                        .sum();
                    let mr: Vec<(i64, i64)> = sys
                        .apps()
                        .map(|(_, a)| (value(a.maps), value(a.reps)))
                        .collect();
                    let assoc_sum: i64 = assoc.iter().map(|&v| value(v)).sum();
                    if best.is_none_or(|b| cost < b) {
                        best = Some(cost);
                        optima.clear();
                    }
                    if best == Some(cost) {
                        match optima.iter_mut().find(|(m, _)| *m == mr) {
                            Some(o) => o.1 = o.1.min(assoc_sum),
                            None => optima.push((mr, assoc_sum)),
                        }
                    }
                }
                for x in vals.iter_mut() {
                    *x += 1;
                    if *x <= U {
                        continue 'all;
                    }
                    *x = 0;
                }
                break;
            }
            let r = solve_with(
                &sys,
                SolveOptions {
                    objective: obj,
                    bound: U as u32,
                    ..Default::default()
                },
            );
            match (&r.outcome, optima.len()) {
                (Outcome::Infeasible, 0) => seen[0] += 1,
                (Outcome::Unique(s), 1) => {
                    seen[1] += 1;
                    assert_eq!(mr(s), optima[0].0, "{sys}");
                    assert_eq!(Some(s.cost()), best);
                    let sum: i64 = assoc.iter().map(|&v| s.value(v)).sum();
                    assert_eq!(sum, optima[0].1, "least associated ranks\n{sys}");
                }
                (Outcome::Ambiguous(a), k) if k >= 2 => {
                    seen[2] += 1;
                    assert_ne!(mr(&a.first), mr(&a.second));
                    assert!(optima.iter().any(|o| o.0 == mr(&a.first)));
                    assert!(optima.iter().any(|o| o.0 == mr(&a.second)));
                }
                (o, k) => panic!("{obj:?}: {k} optima by brute force, solver says {o:?}\n{sys}"),
            }
        }
    }
    // All three verdicts occur.
    assert!(seen.iter().all(|&k| k > 10), "{seen:?}");
}
