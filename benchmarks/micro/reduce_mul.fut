-- Reverse AD of `reduce (*)`: the product p = Π_i x_i and its vjp.
--
-- Inputs: xs [n]f64 and the output adjoint adj (f64); both entries take
-- both (the primal ignores adj). The benchmark data are close to 1 so
-- that the product of millions of them stays finite.
-- Derivative: x̄_i = adj · Π_{j≠i} x_j. Zeros need care (p/x_i cannot be
-- used): with one zero at k only x̄_k is nonzero, with two or more zeros
-- the whole adjoint is zero; the test block checks all three cases.
-- ==
-- entry: primal
-- input { [2.0, 3.0, 4.0] 1.0 } output { 24.0 }
-- input { [2.0, 0.0, 4.0] 1.0 } output { 0.0 }
-- entry: vjp
-- input { [2.0, 3.0, 4.0] 1.0 } output { [12.0, 8.0, 6.0] }
-- input { [0.5, -2.0, 0.25] 4.0 } output { [-2.0, 0.5, -4.0] }
-- input { [2.0, 0.0, 4.0] 2.0 } output { [0.0, 16.0, 0.0] }
-- input { [0.0, 3.0, 0.0] 1.0 } output { [0.0, 0.0, 0.0] }
-- input { [0.0] 5.0 } output { [5.0] }
-- entry: dot_check
-- random input { [1000]f64 f64 0i64 } output { true }
-- random input { [1000]f64 f64 1i64 } output { true }
-- random input { [1000]f64 f64 2i64 } output { true }

def f [n] (xs: [n]f64) : f64 = reduce (*) 1 xs

def f_vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = vjp f xs adj

entry primal [n] (xs: [n]f64) (_adj: f64) : f64 = f xs

entry vjp [n] (xs: [n]f64) (adj: f64) : [n]f64 = f_vjp xs adj

-- ⟨vjp adj, d⟩ = adj · jvp d at xs moved to [0.5, 1.5) with its first z
-- entries set to zero.
entry dot_check [n] (xs: [n]f64) (adj: f64) (z: i64) : bool =
  let xs = map2 (\i x -> if i < z then 0 else x + 0.5) (iota n) xs
  let d = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let lhs = f64.sum (map2 (*) (f_vjp xs adj) d)
  let rhs = adj * jvp f xs d
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1e-300 (f64.abs rhs)
     && (z < 2 || lhs == 0)
     && (z != 1 || lhs != 0)
