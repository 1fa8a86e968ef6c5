-- Reverse AD of `reduce f64.min`: m = min_i x_i and its vjp.
--
-- Inputs: xs [n]f64 (distinct values, so that the minimum is attained
-- once and the adjoint is unambiguous) and the output adjoint adj (f64);
-- both entries take both (the primal ignores adj).
-- Derivative: x̄_i = adj where x_i is the minimum, 0 elsewhere.
-- ==
-- entry: primal
-- input { [3.0, -1.0, 2.0] 5.0 } output { -1.0 }
-- entry: vjp
-- input { [3.0, -1.0, 2.0] 5.0 } output { [0.0, 5.0, 0.0] }
-- input { [7.0] 5.0 } output { [5.0] }
-- entry: dot_check
-- random input { [1000]f64 f64 } output { true }

def f [n] (xs: [n]f64) : f64 = reduce f64.min f64.inf xs

def f_vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = vjp f xs adj

entry primal [n] (xs: [n]f64) (_adj: f64) : f64 = f xs

entry vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = f_vjp xs adj

-- ⟨vjp adj, d⟩ = adj · jvp d, and the adjoint has one nonzero entry.
entry dot_check [n] (xs: [n]f64) (adj: f64) : bool =
  let d = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let g = f_vjp xs adj
  let lhs = f64.sum (map2 (*) g d)
  let rhs = adj * jvp f xs d
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
     && i64.sum (map (\v -> i64.bool (v != 0)) g) == 1
