-- Reverse AD of a histogram with f64.min:
-- r = reduce_by_index dest f64.min f64.inf is vs,
-- r_b = min(dest_b, min_{i: is_i = b} vs_i), and its vjp w.r.t. dest and vs.
--
-- Inputs: dest [m]f64, is [n]i64 (bins; out-of-range ones are ignored),
-- vs [n]f64 and the output adjoint rbar [m]f64; every entry takes all
-- four (the primal ignores rbar). The benchmark data have no ties, so
-- each bin's minimum is attained once and the adjoint is unambiguous.
-- Derivative: rbar_b goes to the one value (dest_b or some vs_i) that is
-- bin b's minimum; everything else gets 0.
-- ==
-- entry: primal
-- input { [1.0, 2.0, 3.0] [0i64, 2, 2, 5, -1, 1] [4.0, 0.5, 7.0, -9.0, -9.0, 1.5] [10.0, 20.0, 30.0] }
-- output { [1.0, 1.5, 0.5] }
-- entry: vjp
-- input { [1.0, 2.0, 3.0] [0i64, 2, 2, 5, -1, 1] [4.0, 0.5, 7.0, -9.0, -9.0, 1.5] [10.0, 20.0, 30.0] }
-- output { [10.0, 0.0, 0.0] [0.0, 30.0, 0.0, 0.0, 0.0, 20.0] }
-- entry: dot_check
-- random input { [10]f64 [1000]i64 [1000]f64 [10]f64 } output { true }

def f [m] [n] (is: [n]i64) (dest: [m]f64, vs: [n]f64) : [m]f64 =
  reduce_by_index (copy dest) f64.min f64.inf is vs

def f_vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  vjp (f is) (dest, vs) rbar

entry primal [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (_rbar: [m]f64) : [m]f64 =
  f is (dest, vs)

entry vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  f_vjp dest is vs rbar

-- ⟨vjp rbar, d⟩ = ⟨rbar, jvp d⟩, with dest moved to [-0.01, 0.02) so
-- that some bins keep their destination value and others do not.
entry dot_check [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : bool =
  let dest = map (\x -> 0.03 * x - 0.01) dest
  let dd = tabulate m (\i -> f64.sin (f64.i64 i + 0.5))
  let dv = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let (gd, gv) = f_vjp dest is vs rbar
  let lhs = f64.sum (map2 (*) gd dd) + f64.sum (map2 (*) gv dv)
  let rhs = f64.sum (map2 (*) rbar (jvp (f is) (dest, vs) (dd, dv)))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
