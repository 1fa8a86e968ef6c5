-- Custom adjoints (with_vjp, with_vjp_tape). The custom adjoints below
-- differ from the true derivatives on purpose, so that a test shows which
-- one was used.

-- f x = 2x with the adjoint ȳ ↦ 10ȳ + √y
def twice (x: f64) : f64 =
  with_vjp (\x -> x * 2) (\y ybar -> ybar * 10 + f64.sqrt y) x

-- the primal is f x; forward mode differentiates f itself (2, times 2)
-- ==
-- entry: primal fwd
-- input { 2.0 } output { 4.0 }
entry primal (x: f64) : f64 = twice x
entry fwd (x: f64) : f64 = jvp twice x 1 * 2

-- reverse mode uses the custom adjoint: ȳ = 3 at y = 4 gives 30 + 2
-- ==
-- entry: rev
-- input { 2.0 } output { 32.0 }
entry rev (x: f64) : f64 = vjp (\x -> twice x * 3) x 1

-- inside a map, with a tuple argument: f (a, b) = a·b, adjoint ȳ ↦ (ȳ, 2ȳ)
-- ==
-- entry: pairs
-- input { [1.0, 2.0] [3.0, 4.0] } output { [1.0, 1.0] [2.0, 2.0] }
entry pairs [n] (as: [n]f64) (bs: [n]f64) : ([n]f64, [n]f64) =
  vjp (\(as, bs) ->
         map2 (\a b -> with_vjp (\(a, b) -> a * b) (\_ ybar -> (ybar, 2 * ybar)) (a, b)) as bs)
      (as, bs) (replicate n 1)

-- with_vjp_tape: the tape (here the sign of x) is kept for the adjoint
-- ==
-- entry: tape
-- input { -3.0 } output { -2.0 }
-- input { 3.0 } output { 2.0 }
entry tape (x: f64) : f64 =
  vjp (\x -> with_vjp_tape (\x -> (f64.sgn x, f64.abs x)) (\(s, ybar) -> s * ybar * 2) x) x 1

-- a custom adjoint inside a loop body
-- ==
-- entry: in_loop
-- input { 1.5 } output { 1000.0 }
entry in_loop (x: f64) : f64 =
  vjp (\x -> loop y = x for _i < 3 do with_vjp (\y -> y + 1) (\_ ybar -> ybar * 10) y) x 1
