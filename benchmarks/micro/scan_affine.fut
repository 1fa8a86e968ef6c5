-- Reverse AD of `scan` with a generic (non-commutative) associative
-- operator: a first-order linear recurrence. The pairs (a, b) stand for
-- the affine maps x ↦ a·x + b, composed as (a, b) ∘ (c, d) = (a·c, b·c + d)
-- (neutral (1, 0)); the scan gives the prefix compositions (A_k, B_k),
-- where B_k = a_k B_{k-1} + b_k is the recurrence started from 0.
--
-- Inputs: as [n]f64 (close to 1 in the benchmark data), bs [n]f64 and the
-- output adjoints abar [n]f64 and bbar [n]f64; every entry takes all four.
-- Maths: A_k = Π_{i≤k} a_i and B_k = Σ_{i≤k} b_i P_{i,k}, where
-- P_{i,k} = Π_{i<j≤k} a_j. With c_i = Σ_{k≥i} Ā_k P_{i,k} and
-- b̄_i = Σ_{k≥i} B̄_k P_{i,k} (both the recurrence run backwards:
-- c_i = Ā_i + a_{i+1} c_{i+1}), the adjoints are b̄ and
-- ā_i = A_{i-1} c_i + B_{i-1} b̄_i   (A_{-1} = 1, B_{-1} = 0).
-- ==
-- entry: primal
-- input { [2.0, 3.0, 0.5] [1.0, 4.0, 2.0] [1.0, 0.0, 1.0] [0.0, 10.0, 1.0] }
-- output { [2.0, 6.0, 3.0] [1.0, 7.0, 5.5] }
-- entry: vjp
-- input { [2.0, 3.0, 0.5] [1.0, 4.0, 2.0] [1.0, 0.0, 1.0] [0.0, 10.0, 1.0] }
-- output { [2.5, 11.5, 13.0] [31.5, 10.5, 1.0] }
-- entry: dot_check
-- random input { [1000]f64 [1000]f64 [1000]f64 [1000]f64 } output { true }

def compose (a: f64, b: f64) (c: f64, d: f64) : (f64, f64) = (a * c, b * c + d)

def f [n] (as: [n]f64, bs: [n]f64) : ([n]f64, [n]f64) = unzip (scan compose (1, 0) (zip as bs))

def f_vjp [n] (as: [n]f64) (bs: [n]f64) (abar: [n]f64) (bbar: [n]f64) : ([n]f64, [n]f64) =
  vjp f (as, bs) (abar, bbar)

entry primal [n] (as: [n]f64) (bs: [n]f64) (_abar: [n]f64) (_bbar: [n]f64) : ([n]f64, [n]f64) =
  f (as, bs)

entry vjp [n] (as: [n]f64) (bs: [n]f64) (abar: [n]f64) (bbar: [n]f64) : ([n]f64, [n]f64) =
  f_vjp as bs abar bbar

-- ⟨vjp, d⟩ = ⟨adjoint, jvp d⟩ at as moved to [0.5, 1.5).
entry dot_check [n] (as: [n]f64) (bs: [n]f64) (abar: [n]f64) (bbar: [n]f64) : bool =
  let as = map (+ 0.5) as
  let da = tabulate n (\i -> f64.sin (f64.i64 i + 0.5))
  let db = tabulate n (\i -> f64.cos (f64.i64 i + 0.5))
  let (ga, gb) = f_vjp as bs abar bbar
  let lhs = f64.sum (map2 (*) ga da) + f64.sum (map2 (*) gb db)
  let (ta, tb) = jvp f (as, bs) (da, db)
  let rhs = f64.sum (map2 (*) abar ta) + f64.sum (map2 (*) bbar tb)
  in f64.abs (lhs - rhs) <= 1e-10 * f64.max 1 (f64.abs rhs)
