-- Reverse AD of `reduce (+)`: the sum s = Σ_i x_i and its vjp.
--
-- Inputs: xs [n]f64 and the output adjoint adj (f64); both entries take
-- both (the primal ignores adj).
-- Derivative: ∂s/∂x_i = 1, so the vjp is adj replicated: x̄_i = adj.
-- ==
-- entry: primal
-- input { [1.5, -2.0, 4.25] 3.0 } output { 3.75 }
-- entry: vjp
-- input { [1.5, -2.0, 4.25] 3.0 } output { [3.0, 3.0, 3.0] }
-- input { empty([0]f64) 3.0 } output { empty([0]f64) }
-- entry: dot_check
-- random input { [1000]f64 f64 } output { true }
-- random input { [1]f64 f64 } output { true }

def f [n] (xs: [n]f64) : f64 = reduce (+) 0 xs

def f_vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = vjp f xs adj

entry primal [n] (xs: [n]f64) (_adj: f64) : f64 = f xs

entry vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = f_vjp xs adj

-- ⟨vjp adj, d⟩ = adj · jvp d for a direction d derived from the index.
entry dot_check [n] (xs: [n]f64) (adj: f64) : bool =
  let d = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let lhs = f64.sum (map2 (*) (f_vjp xs adj) d)
  let rhs = adj * jvp f xs d
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
