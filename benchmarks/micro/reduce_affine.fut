-- Reverse AD of `reduce` with a generic (non-commutative) associative
-- operator: the composition of affine maps x ↦ a·x + b, represented as
-- pairs (a, b), where applying (a, b) and then (c, d) is
-- (a, b) ∘ (c, d) = (a·c, b·c + d), with neutral element (1, 0).
--
-- Inputs: as [n]f64 (close to 1 in the benchmark data, so that the
-- products stay finite), bs [n]f64, and the output adjoint (abar, bbar)
-- of the resulting pair (A, B); every entry takes all four.
-- Maths: A = Π_i a_i and B = Σ_i b_i Π_{j>i} a_j. With the prefix
-- compositions (A_k, B_k) (A_{-1} = 1, B_{-1} = 0), B = B_i Π_{j>i} a_j + …
-- and B_i = a_i B_{i-1} + b_i, so
--   ā_i = (abar · A_{i-1} + bbar · B_{i-1}) · Π_{j>i} a_j,
--   b̄_i = bbar · Π_{j>i} a_j.
-- ==
-- entry: primal
-- input { [2.0, 3.0, 0.5] [1.0, 4.0, 2.0] 1.0 10.0 } output { 3.0 5.5 }
-- entry: vjp
-- input { [2.0, 3.0, 0.5] [1.0, 4.0, 2.0] 1.0 10.0 }
-- output { [1.5, 6.0, 76.0] [15.0, 5.0, 10.0] }
-- entry: dot_check
-- random input { [1000]f64 [1000]f64 f64 f64 } output { true }

def compose (a: f64, b: f64) (c: f64, d: f64) : (f64, f64) = (a * c, b * c + d)

def f [n] (as: [n]f64, bs: [n]f64) : (f64, f64) = reduce compose (1, 0) (zip as bs)

def f_vjp [n] (as: [n]f64) (bs: [n]f64) (abar: f64) (bbar: f64) : ([n]f64, [n]f64) =
  vjp f (as, bs) (abar, bbar)

entry primal [n] (as: [n]f64) (bs: [n]f64) (_abar: f64) (_bbar: f64) : (f64, f64) =
  f (as, bs)

entry vjp [n] (as: [n]f64) (bs: [n]f64) (abar: f64) (bbar: f64) : ([n]f64, [n]f64) =
  f_vjp as bs abar bbar

-- ⟨vjp, d⟩ = ⟨adjoint, jvp d⟩ at as moved to [0.5, 1.5).
entry dot_check [n] (as: [n]f64) (bs: [n]f64) (abar: f64) (bbar: f64) : bool =
  let as = map (+ 0.5) as
  let da = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let db = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let (ga, gb) = f_vjp as bs abar bbar
  let lhs = f64.sum (map2 (*) ga da) + f64.sum (map2 (*) gb db)
  let (ta, tb) = jvp f (as, bs) (da, db)
  let rhs = abar * ta + bbar * tb
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
