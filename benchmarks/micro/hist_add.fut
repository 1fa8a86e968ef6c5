-- Reverse AD of a histogram with (+): r = reduce_by_index dest (+) 0 is vs,
-- r_b = dest_b + Σ_{i: is_i = b} vs_i, and its vjp w.r.t. dest and vs.
--
-- Inputs: dest [m]f64, is [n]i64 (bins; out-of-range ones are ignored),
-- vs [n]f64 and the output adjoint rbar [m]f64; every entry takes all
-- four (the primal ignores rbar).
-- Derivative: dest̄ = rbar, v̄_i = rbar[is_i] (0 for an ignored index).
-- ==
-- entry: primal
-- input { [1.0, 2.0, 3.0] [0i64, 2, 2, 5, -1, 0] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] [10.0, 20.0, 30.0] }
-- output { [8.0, 2.0, 8.0] }
-- entry: vjp
-- input { [1.0, 2.0, 3.0] [0i64, 2, 2, 5, -1, 0] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] [10.0, 20.0, 30.0] }
-- output { [10.0, 20.0, 30.0] [10.0, 30.0, 30.0, 0.0, 0.0, 10.0] }
-- entry: dot_check
-- random input { [10]f64 [1000]i64 [1000]f64 [10]f64 } output { true }

def f [m] [n] (is: [n]i64) (dest: [m]f64, vs: [n]f64) : [m]f64 =
  reduce_by_index (copy dest) (+) 0 is vs

def f_vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  vjp (f is) (dest, vs) rbar

entry primal [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (_rbar: [m]f64) : [m]f64 =
  f is (dest, vs)

entry vjp [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : ([m]f64, [n]f64) =
  f_vjp dest is vs rbar

-- ⟨vjp rbar, d⟩ = ⟨rbar, jvp d⟩.
entry dot_check [m] [n] (dest: [m]f64) (is: [n]i64) (vs: [n]f64) (rbar: [m]f64) : bool =
  let dd = tabulate m (\i -> f64.sin (f64.i64 i + 0.5))
  let dv = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let (gd, gv) = f_vjp dest is vs rbar
  let lhs = f64.sum (map2 (*) gd dd) + f64.sum (map2 (*) gv dv)
  let rhs = f64.sum (map2 (*) rbar (jvp (f is) (dest, vs) (dd, dv)))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
