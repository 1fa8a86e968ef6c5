//! Forward mode on programs written in Futhark: `jvp`/`jvp2` lowered to
//! core IR, expanded, checked and run.

mod harness;

use harness::*;

fn run1(src: &str, entry: &str, args: &str) -> Vec<f64> {
    let r = run_source(src, entry, args);
    r.iter().flat_map(flat).collect()
}

#[test]
fn scalar_derivatives() {
    let src = "entry d (x: f64) = jvp (\\x -> x * f64.sin x + f64.exp (2 * x)) x 1\n\
               entry both (x: f64) = jvp2 (\\x -> f64.log x / x) x 1\n";
    let x: f64 = 0.6;
    assert_close(
        &run1(src, "d", "0.6f64"),
        &[x.sin() + x * x.cos() + 2.0 * (2.0 * x).exp()],
        1e-14,
        "d",
    );
    assert_close(
        &run1(src, "both", "0.6f64"),
        &[x.ln() / x, (1.0 - x.ln()) / (x * x)],
        1e-14,
        "both",
    );
}

#[test]
fn jacobian_columns_of_a_vector_function() {
    // Column i of the Jacobian of the softmax-like map is jvp along e_i.
    let src = "def f [n] (xs: [n]f64) = let s = reduce (+) 0 (map f64.exp xs) in map (\\x -> f64.exp x / s) xs\n\
               entry col [n] (xs: [n]f64) (i: i64) = jvp f xs (tabulate n (\\j -> if j == i then 1 else 0))\n";
    let xs = [0.1f64, -0.4, 0.7];
    let s: f64 = xs.iter().map(|x| x.exp()).sum();
    let p: Vec<f64> = xs.iter().map(|x| x.exp() / s).collect();
    for i in 0..3 {
        let got = run1(src, "col", &format!("[0.1f64, -0.4f64, 0.7f64] {i}i64"));
        let want: Vec<f64> = (0..3)
            .map(|j| {
                if i == j {
                    p[j] * (1.0 - p[j])
                } else {
                    -p[j] * p[i]
                }
            })
            .collect();
        assert_close(&got, &want, 1e-14, &format!("column {i}"));
    }
}

#[test]
fn soacs_loops_and_conditionals() {
    let src = "\
def g [n] (xs: [n]f64) : f64 =
  let ys = scan (*) 1 xs
  let h = hist (+) 0 3 (map (\\i -> i % 3) (iota n)) ys
  let z = loop acc = 0 for i < 3 do acc + (if h[i] > 0 then h[i] * h[i] else f64.sin h[i])
  in z + reduce f64.max (-f64.inf) xs

entry dg [n] (xs: [n]f64) (dxs: [n]f64) = jvp g xs dxs
entry g_ [n] (xs: [n]f64) = g xs
";
    let xs = [0.5f64, -1.25, 0.75, 1.5, -0.25];
    let dxs = [0.3f64, -0.2, 0.1, 0.4, 0.05];
    let fmt = |v: &[f64]| {
        format!(
            "[{}]",
            v.iter()
                .map(|x| format!("{x:e}f64"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let got = run1(src, "dg", &format!("{} {}", fmt(&xs), fmt(&dxs)));
    let h = 1e-6;
    let at = |s: f64| {
        let v: Vec<f64> = xs.iter().zip(&dxs).map(|(x, d)| x + s * d).collect();
        run1(src, "g_", &fmt(&v))[0]
    };
    assert_close(&got, &[(at(h) - at(-h)) / (2.0 * h)], 1e-6, "dg");
}

#[test]
fn second_derivative_by_nesting() {
    let src = "def f (x: f64) = x * x * x\n\
               entry d2 (x: f64) = jvp (\\x -> jvp f x 1) x 1\n";
    assert_close(&run1(src, "d2", "2f64"), &[12.0], 1e-14, "f''");
}

#[test]
fn tuples_f32_and_integer_arguments() {
    // Tuple arguments and results; the i64 component has no tangent.
    let src = "def f ((x: f32, k: i64), y: f32) = (x * y + f32.i64 k, k * 2)\n\
               entry d (x: f32) (y: f32) = jvp f ((x, 3), y) ((1, 0), 0)\n";
    let r = run_source(src, "d", "2f32 5f32");
    assert_eq!(flat(&r[0]), vec![5.0]);
    assert_eq!(flat(&r[1]), vec![0.0]);
}

#[test]
fn several_seeds_at_once_with_jmp() {
    let src = "entry j (x: f64) (y: f64) = jmp (\\(x, y) -> x * x * y) (x, y) [(1, 0), (0, 1)]\n";
    let r = run_source(src, "j", "3f64 2f64");
    assert_eq!(flat(&r[0]), vec![12.0, 9.0]);
}
