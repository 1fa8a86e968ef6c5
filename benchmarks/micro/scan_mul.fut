-- Reverse AD of `scan (*)`: the prefix products y_k = Π_{i≤k} x_i and
-- the vjp.
--
-- Inputs: xs [n]f64 (close to 1 in the benchmark data, so that the
-- products stay finite) and the output adjoint ybar [n]f64; both entries
-- take both (the primal ignores ybar).
-- Derivative: x̄_i = Σ_{k≥i} ȳ_k Π_{j≤k, j≠i} x_j; zeros in xs must not
-- be divided by, which the test block checks (one and two zeros).
-- ==
-- entry: primal
-- input { [2.0, 3.0, 4.0] [1.0, 1.0, 1.0] } output { [2.0, 6.0, 24.0] }
-- entry: vjp
-- input { [2.0, 3.0, 4.0] [1.0, 1.0, 1.0] } output { [16.0, 10.0, 6.0] }
-- input { [2.0, 0.0, 4.0] [1.0, 1.0, 1.0] } output { [1.0, 10.0, 0.0] }
-- input { [0.0, 3.0, 0.0, 5.0] [1.0, 1.0, 1.0, 1.0] } output { [4.0, 0.0, 0.0, 0.0] }
-- entry: dot_check
-- random input { [1000]f64 [1000]f64 0i64 } output { true }
-- random input { [1000]f64 [1000]f64 1i64 } output { true }
-- random input { [1000]f64 [1000]f64 3i64 } output { true }

def f [n] (xs: [n]f64) : [n]f64 = scan (*) 1 xs

def f_vjp [n] (xs: [n]f64) (ybar: [n]f64) : [n]f64 = vjp f xs ybar

entry primal [n] (xs: [n]f64) (_ybar: [n]f64) : [n]f64 = f xs

entry vjp [n] (xs: [n]f64) (ybar: [n]f64) : [n]f64 = f_vjp xs ybar

-- ⟨vjp ybar, d⟩ = ⟨ybar, jvp d⟩ at xs moved to [0.5, 1.5) with zeros at
-- every 97th position from 13 on, z of them.
entry dot_check [n] (xs: [n]f64) (ybar: [n]f64) (z: i64) : bool =
  let xs = map2 (\i x -> if i % 97 == 13 && i / 97 < z then 0 else x + 0.5) (iota n) xs
  let d = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let lhs = f64.sum (map2 (*) (f_vjp xs ybar) d)
  let rhs = f64.sum (map2 (*) ybar (jvp f xs d))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1e-300 (f64.abs rhs)
