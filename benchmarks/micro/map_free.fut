-- Reverse AD of a `map` whose body reads free variables: an array `table`
-- indexed indirectly and a scalar `s`,
--   y_i = table[idx_i] · x_i + s   (i < n, written over `iota n`),
-- and its vjp w.r.t. table, xs and s, where the free variables collect
-- adjoints from every iteration.
--
-- Inputs: table [m]f64, idx [n]i64 (in range), xs [n]f64, s f64 and the
-- output adjoint ybar [n]f64; every entry takes all five (the primal
-- ignores ybar).
-- Derivative: tablē_j = Σ_{i: idx_i = j} ȳ_i x_i (a histogram),
-- x̄_i = ȳ_i table[idx_i], s̄ = Σ_i ȳ_i.
-- ==
-- entry: primal
-- input { [1.0, 2.0, 3.0] [2i64, 0, 2, 1] [1.0, 2.0, 3.0, 4.0] 0.5 [1.0, 10.0, 100.0, 1000.0] }
-- output { [3.5, 2.5, 9.5, 8.5] }
-- entry: vjp
-- input { [1.0, 2.0, 3.0] [2i64, 0, 2, 1] [1.0, 2.0, 3.0, 4.0] 0.5 [1.0, 10.0, 100.0, 1000.0] }
-- output { [20.0, 4000.0, 301.0] [3.0, 10.0, 300.0, 2000.0] 1111.0 }
-- entry: dot_check
-- random input { [10]f64 [1000]i64 [1000]f64 f64 [1000]f64 } output { true }

def f [m] [n] (idx: [n]i64) (table: [m]f64, xs: [n]f64, s: f64) : [n]f64 =
  map (\i -> table[idx[i]] * xs[i] + s) (iota n)

def f_vjp [m] [n] (table: [m]f64) (idx: [n]i64) (xs: [n]f64) (s: f64) (ybar: [n]f64)
                  : ([m]f64, [n]f64, f64) =
  vjp (f idx) (table, xs, s) ybar

entry primal [m] [n] (table: [m]f64) (idx: [n]i64) (xs: [n]f64) (s: f64) (_ybar: [n]f64) : [n]f64 =
  f idx (table, xs, s)

entry vjp [m] [n] (table: [m]f64) (idx: [n]i64) (xs: [n]f64) (s: f64) (ybar: [n]f64)
                  : ([m]f64, [n]f64, f64) =
  f_vjp table idx xs s ybar

-- ⟨vjp ybar, d⟩ = ⟨ybar, jvp d⟩.
entry dot_check [m] [n] (table: [m]f64) (idx: [n]i64) (xs: [n]f64) (s: f64) (ybar: [n]f64) : bool =
  let dt = tabulate m (\i -> f64.sin (f64.i64 i + 0.5))
  let dx = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let ds = 0.75
  let (gt, gx, gs) = f_vjp table idx xs s ybar
  let lhs = f64.sum (map2 (*) gt dt) + f64.sum (map2 (*) gx dx) + gs * ds
  let rhs = f64.sum (map2 (*) ybar (jvp (f idx) (table, xs, s) (dt, dx, ds)))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
