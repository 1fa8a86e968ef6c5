//! Reverse mode on programs written in Futhark source: lowering, AD
//! expansion, IR check and interpretation.

mod harness;
use parad_core::{Program, Scan, Soac};
use parad_values::{read_values, Value};

/// Lowered, differentiated and checked by the driver.
fn compile(src: &str) -> Program {
    harness::compile_source(src)
}

fn run(src: &str, args: &str) -> Vec<Value> {
    let p = compile(src);
    parad_interp::run(&p, "main", read_values(args.as_bytes()).unwrap())
        .unwrap_or_else(|e| panic!("run failed: {}", e.message))
}

fn expect(src: &str, args: &str, out: &str) {
    assert_eq!(run(src, args), read_values(out.as_bytes()).unwrap());
}

#[test]
fn gradient_of_a_dot_product() {
    expect(
        "def dot (xs: []f64, ys: []f64) = f64.sum (map2 (*) xs ys)\n\
         entry main (xs: []f64) (ys: []f64) = vjp dot (xs, ys) 1.0",
        "[1.0, 2.0, 3.0] [4.0, 5.0, 6.0]",
        "[4.0, 5.0, 6.0] [1.0, 2.0, 3.0]",
    );
}

#[test]
fn gradient_through_min_of_squares() {
    expect(
        "def f (xs: []f64) = f64.minimum (map (\\x -> (x - 1) * (x - 1)) xs)\n\
         entry main (xs: []f64) = vjp f xs 1.0",
        "[3.0, 0.5, 2.0, 1.5]",
        "[0.0, -1.0, 0.0, 0.0]",
    );
}

#[test]
fn per_row_gradients_with_vjp_inside_map() {
    expect(
        "def sq (x: f64) = x * x * x\n\
         entry main (xss: [][]f64) = map (\\xs -> map (\\x -> vjp sq x 1.0) xs) xss",
        "[[1.0, 2.0], [3.0, -1.0]]",
        "[[3.0, 12.0], [27.0, 3.0]]",
    );
}

#[test]
fn gradient_through_a_loop_and_a_histogram() {
    expect(
        "def f (xs: []f64) =\n\
           let h = reduce_by_index (replicate 3 0.0) (+) 0.0 [0, 2, 0, 5] xs\n\
           let p = loop acc = 1.0 for i < 3 do acc * (h[i] + 1.0)\n\
           in p\n\
         entry main (xs: []f64) = vjp f xs 1.0",
        "[1.0, 2.0, 3.0, 4.0]",
        "[3.0, 5.0, 3.0, 0.0]",
    );
}

#[test]
fn value_and_gradient_of_a_tuple_function() {
    expect(
        "def f (x: f64, y: f64) = (x * y, f64.sin x)\n\
         entry main (x: f64) (y: f64) = (f (x, y), vjp f (x, y) (1.0, 0.0))",
        "2.0 3.0",
        "6.0 0.9092974268256817 3.0 2.0",
    );
}

#[test]
fn second_derivative_by_jvp_of_vjp() {
    expect(
        "def f (x: f64) = x * x * x\n\
         entry main (x: f64) = jvp (\\y -> vjp f y 1.0) x 1.0",
        "2.0",
        "12.0",
    );
}

#[test]
fn second_derivative_by_vjp_of_vjp() {
    expect(
        "def f (x: f64) = x * x * f64.sin x\n\
         entry main (x: f64) = vjp (\\y -> vjp f y 1.0) x 1.0",
        "0.0",
        "0.0",
    );
}

#[test]
fn hessian_diagonal_of_a_kmeans_cost() {
    // cost c = Σ_p min_k (p - c_k)²; gradient and Hessian diagonal.
    expect(
        "def cost (ps: []f64) (cs: []f64) =\n\
           f64.sum (map (\\p -> f64.minimum (map (\\c -> (p - c) * (p - c)) cs)) ps)\n\
         entry main (ps: []f64) (cs: []f64) =\n\
           jvp2 (\\c -> vjp (cost ps) c 1.0) cs (map (\\_ -> 1.0) cs)",
        "[0.0, 1.0, 4.0, 5.0, 6.0] [0.5, 5.5]",
        "[0.0, 3.0] [4.0, 6.0]",
    );
}

#[test]
fn vjp_of_vjp_through_accumulators() {
    // ∇f = (3x0², 0, 6x2²) for f xs = x0³ + 2·x2³ (x2 read twice in the map);
    // the gradient of Σ∇f is (6x0, 0, 12x2).
    expect(
        "def f (xs: []f64) = f64.sum (map (\\i -> xs[i] * xs[i] * xs[i]) [0, 2, 2])\n\
         entry main (xs: []f64) = vjp (\\ys -> f64.sum (vjp f ys 1.0)) xs 1.0",
        "[1.0, 5.0, 2.0]",
        "[6.0, 0.0, 24.0]",
    );
}

#[test]
fn hessian_vector_product_of_a_matrix_function_by_vjp_of_vjp() {
    // f(A, v) = Σ_i (A v)_i²; inner gradient w.r.t. v is 2Aᵀ(Av);
    // the outer vjp with seed u gives (w.r.t. v) 2AᵀA u.
    expect(
        "def f (a: [][]f64) (v: []f64) = f64.sum (map (\\row -> let s = f64.sum (map2 (*) row v) in s * s) a)\n\
         entry main (a: [][]f64) (v: []f64) (u: []f64) = vjp (\\w -> vjp (f a) w 1.0) v u",
        "[[1.0, 2.0], [0.0, 3.0]] [1.0, 1.0] [1.0, 0.0]",
        "[2.0, 4.0]",
    );
}

/// The scans in the differentiated program, as their numbers of results.
fn scan_arities(p: &Program) -> Vec<usize> {
    let mut out = vec![];
    parad_core::walk::stms(p, |s| {
        if let parad_core::Exp::Soac(Soac::Scan(Scan { arrs, .. })) = &s.exp {
            out.push(arrs.len())
        }
    });
    out
}

/// Seed 000 §7.4: a tuple operator acting componentwise has a diagonal
/// Jacobian, so the backward recurrence is three scans over (value,
/// 1×1 matrix) pairs instead of one over 3 values and 3×3 matrices; the
/// gradient is unchanged (checked by hand: d/dx_j Σ_i prefix sums is the
/// suffix count, of products Σ_{i≥j} Π_{k≤i, k≠j} y_k, of maxima the
/// number of prefixes whose maximum is z_j).
#[test]
fn componentwise_tuple_scan_uses_diagonal_jacobians() {
    let src = "def op (a1: f64, b1: f64, c1: f64) (a2: f64, b2: f64, c2: f64) =\n\
                 (a1 + a2, b1 * b2, f64.max c1 c2)\n\
               entry main (xs: []f64) (ys: []f64) (zs: []f64) =\n\
                 vjp (\\(xs, ys, zs) ->\n\
                        let (a, b, c) = unzip3 (scan op (0, 1, -f64.inf) (zip3 xs ys zs))\n\
                        in f64.sum a + f64.sum b + f64.sum c) (xs, ys, zs) 1";
    let p = compile(src);
    let ar = scan_arities(&p);
    assert!(ar.contains(&2) && !ar.contains(&12), "scans: {ar:?}");
    // ys = [2, 3, 1]: prefix products 2, 6, 6: d/dy0 = 1 + 3 + 3 = 7,
    // d/dy1 = 2 + 2 = 4, d/dy2 = 6. zs = [1, 3, 2]: maxima 1, 3, 3: z0
    // once, z1 twice, z2 never.
    expect(
        src,
        "[1.0, 1.0, 1.0] [2.0, 3.0, 1.0] [1.0, 3.0, 2.0]",
        "[3.0, 2.0, 1.0] [7.0, 4.0, 6.0] [1.0, 2.0, 0.0]",
    );
}

/// 2×2 matrix products as 4-tuples: the Jacobian of `x ↦ x·a` is
/// block-diagonal with two 2×2 blocks, so no 4×4 matrices are formed.
#[test]
fn matrix_product_scan_uses_2x2_blocks() {
    let src =
        "def mm (a1: f64, b1: f64, c1: f64, d1: f64) (a2: f64, b2: f64, c2: f64, d2: f64) =\n\
                 (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2)\n\
               entry main (as: []f64) (bs: []f64) (cs: []f64) (ds: []f64) =\n\
                 let xs = zip4 as bs cs ds\n\
                 in unzip4 (vjp (\\xs -> let (a, b, c, d) = unzip4 (scan mm (1, 0, 0, 1) xs)\n\
                                        in f64.sum a + f64.sum b + f64.sum c + f64.sum d) xs 1)";
    let p = compile(src);
    let ar = scan_arities(&p);
    assert!(
        !ar.contains(&20),
        "a 4x4 Jacobian recurrence remains: {ar:?}"
    );
    // M1 = [[1,2],[3,4]], M2 = [[0,1],[1,0]]; the sum of the entries of
    // M1 and M1·M2 has gradient 1 + (row sums of M2) = 2 for M1 and the
    // column sums of M1 (4, 6) down the rows of M2.
    expect(
        src,
        "[1.0, 0.0] [2.0, 1.0] [3.0, 1.0] [4.0, 0.0]",
        "[2.0, 4.0] [2.0, 4.0] [2.0, 6.0] [2.0, 6.0]",
    );
}
