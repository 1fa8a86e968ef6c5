-- Reverse AD of `scatter`: r = scatter dest is vs (r_{is_i} = vs_i, the
-- other entries of dest unchanged) and its vjp w.r.t. dest and vs.
--
-- Inputs: dest [m]f64, is [k]i64 (distinct in-range positions in the
-- benchmark data; out-of-range ones are ignored), vs [k]f64 and the
-- output adjoint rbar [m]f64; every entry takes all four (the primal
-- ignores rbar).
-- Derivative: dest̄ = rbar with the written positions zeroed,
-- v̄_i = rbar[is_i] (0 for an ignored index).
-- ==
-- entry: primal
-- input { [1.0, 2.0, 3.0, 4.0] [2i64, 0, 9, -1] [10.0, 20.0, 30.0, 40.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [20.0, 2.0, 10.0, 4.0] }
-- entry: vjp
-- input { [1.0, 2.0, 3.0, 4.0] [2i64, 0, 9, -1] [10.0, 20.0, 30.0, 40.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.0, 2.0, 0.0, 4.0] [3.0, 1.0, 0.0, 0.0] }
-- entry: dot_check
-- random input { [1000]f64 [500]i64 [500]f64 [1000]f64 } output { true }

def f [m] [k] (is: [k]i64) (dest: [m]f64, vs: [k]f64) : [m]f64 =
  scatter (copy dest) is vs

def f_vjp [m] [k] (dest: [m]f64) (is: [k]i64) (vs: [k]f64) (rbar: [m]f64) : ([m]f64, [k]f64) =
  vjp (f is) (dest, vs) rbar

entry primal [m] [k] (dest: [m]f64) (is: [k]i64) (vs: [k]f64) (_rbar: [m]f64) : [m]f64 =
  f is (dest, vs)

entry vjp [m] [k] (dest: [m]f64) (is: [k]i64) (vs: [k]f64) (rbar: [m]f64) : ([m]f64, [k]f64) =
  f_vjp dest is vs rbar

-- ⟨vjp rbar, d⟩ = ⟨rbar, jvp d⟩, with the (random, repeating) indices
-- replaced by distinct ones, i ↦ (7i + 3) mod m, every third one out of
-- range.
entry dot_check [m] [k] (dest: [m]f64) (_is: [k]i64) (vs: [k]f64) (rbar: [m]f64) : bool =
  let is = tabulate k (\i -> if i % 3 == 2 then m + i else (7 * i + 3) % m)
  let dd = tabulate m (\i -> f64.sin (f64.i64 i + 0.5))
  let dv = tabulate k (\i -> f64.cos (f64.i64 i + 0.5))
  let (gd, gv) = f_vjp dest is vs rbar
  let lhs = f64.sum (map2 (*) gd dd) + f64.sum (map2 (*) gv dv)
  let rhs = f64.sum (map2 (*) rbar (jvp (f is) (dest, vs) (dd, dv)))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
