-- Reverse AD of `scan (+)`: the prefix sums y_k = Σ_{i≤k} x_i and the vjp.
--
-- Inputs: xs [n]f64 and the output adjoint ybar [n]f64; both entries take
-- both (the primal ignores ybar).
-- Derivative: x̄_i = Σ_{k≥i} ȳ_k, a suffix sum (a reversed scan).
-- ==
-- entry: primal
-- input { [1.0, 2.0, 3.0] [1.0, 10.0, 100.0] } output { [1.0, 3.0, 6.0] }
-- entry: vjp
-- input { [1.0, 2.0, 3.0] [1.0, 10.0, 100.0] } output { [111.0, 110.0, 100.0] }
-- input { empty([0]f64) empty([0]f64) } output { empty([0]f64) }
-- entry: dot_check
-- random input { [1000]f64 [1000]f64 } output { true }

def f [n] (xs: [n]f64) : [n]f64 = scan (+) 0 xs

def f_vjp [n] (xs: [n]f64) (ybar: [n]f64) : [n]f64 = vjp f xs ybar

entry primal [n] (xs: [n]f64) (_ybar: [n]f64) : [n]f64 = f xs

entry vjp [n] (xs: [n]f64) (ybar: [n]f64) : [n]f64 = f_vjp xs ybar

-- ⟨vjp ybar, d⟩ = ⟨ybar, jvp d⟩.
entry dot_check [n] (xs: [n]f64) (ybar: [n]f64) : bool =
  let d = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let lhs = f64.sum (map2 (*) (f_vjp xs ybar) d)
  let rhs = f64.sum (map2 (*) ybar (jvp f xs d))
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
