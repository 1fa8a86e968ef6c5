-- Reverse AD of a histogram with a generic commutative associative
-- operator, a ⊙ b = a + b + a·b (that is, (1 + a)(1 + b) − 1; neutral 0):
-- r = reduce_by_index dest (⊙) 0 is vs, and its vjp w.r.t. dest and vs.
--
-- Inputs: dest [m]f64, is [n]i64 (bins; out-of-range ones are ignored),
-- vs [n]f64 (small in the benchmark data, so that the bins' products
-- stay finite) and the output adjoint rbar [m]f64; every entry takes all
-- four (the primal ignores rbar).
-- Maths: 1 + r_b = (1 + dest_b) Π_{i: is_i = b} (1 + vs_i), so
-- dest̄_b = rbar_b (1 + r_b)/(1 + dest_b) and v̄_i = rbar_b (1 + r_b)/(1 + vs_i)
-- for b = is_i (the rule knows nothing of this and must work with ⊙ alone).
-- ==
-- entry: primal
-- input { [0.0, 1.0, 0.5] [0i64, 0, 2, 1, 7] [1.0, 2.0, -0.5, 3.0, 5.0] [1.0, 10.0, 100.0] }
-- output { [5.0, 7.0, -0.25] }
-- entry: vjp
-- input { [0.0, 1.0, 0.5] [0i64, 0, 2, 1, 7] [1.0, 2.0, -0.5, 3.0, 5.0] [1.0, 10.0, 100.0] }
-- output { [6.0, 40.0, 50.0] [3.0, 2.0, 150.0, 20.0, 0.0] }
-- entry: dot_check
-- random input { [10]f64 [1000]i64 [1000]f64 [10]f64 } output { true }

def op (a: f64) (b: f64) : f64 = a + b + a * b

def f [m] [n] (is: [n]i64) (dest: [m]f64, vs: [n]f64) : [m]f64 =
  reduce_by_index (copy dest) op 0 is vs

def f_vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  vjp (f is) (dest, vs) rbar

entry primal [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (_rbar: [m]f64) : [m]f64 =
  f is (dest, vs)

entry vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  f_vjp dest is vs rbar

-- ⟨vjp rbar, d⟩ = ⟨rbar, jvp d⟩ at vs moved to [-0.05, 0.05).
entry dot_check [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : bool =
  let vs = map (\v -> 0.1 * v - 0.05) vs
  let dd = tabulate m (\i -> f64.sin (f64.i64 i + 0.5))
  let dv = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let (gd, gv) = f_vjp dest is vs rbar
  let lhs = f64.sum (map2 (*) gd dd) + f64.sum (map2 (*) gv dv)
  let rhs = f64.sum (map2 (*) rbar (jvp (f is) (dest, vs) (dd, dv)))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
