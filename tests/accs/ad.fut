-- Derivatives through accumulators (both modes): a sum histogram, a
-- product histogram and a scatter, each written with the accumulator
-- intrinsics.
-- ==
-- entry: sum_rev sum_fwd
-- input { [2f64, 3f64] [1f64, 2f64, 3f64] }
-- output { [1f64, 1f64] [2f64, 4f64, 6f64] }
-- entry: prod_rev prod_fwd
-- input { [2f64, 3f64] [1f64, 2f64, 3f64] }
-- output { [3f64, 2f64] [6f64, 3f64, 2f64] }
-- entry: scatter_rev scatter_fwd
-- input { [5f64, 6f64, 7f64] [2i64, 0i64] [1f64, 4f64] }
-- output { [0f64, 1f64, 0f64] [2f64, 2f64] }

import "lib/acc"

-- out[j] = xs[j] + sum of ys[i]^2 over i % n == j
def sums [n] [m] (xs: [n]f64, ys: [m]f64) : [n]f64 =
  let f (c: *acc ([n]f64)) (i: i64) = put c (i % n) (ys[i] * ys[i])
  in combine_all (copy xs) (+) 0 f (iota m)

-- out[j] = xs[j] * product of ys[i] over i % n == j
def prods [n] [m] (xs: [n]f64, ys: [m]f64) : [n]f64 =
  let f (c: *acc ([n]f64)) (i: i64) = put c (i % n) ys[i]
  in combine_all (copy xs) (*) 1 f (iota m)

-- out[is[i]] = 2 * ys[i]; other cells keep xs
def writes [n] [m] (is: [m]i64) (xs: [n]f64, ys: [m]f64) : [n]f64 =
  let f (c: *acc ([n]f64)) (i: i64) = put c is[i] (2 * ys[i])
  in write_all (copy xs) f (iota m)

-- Gradient of the sum of the outputs, by vjp and by one jvp per input.
def grad_rev [n] [m] (g: ([n]f64, [m]f64) -> [n]f64) xs ys =
  vjp g (xs, ys) (replicate n 1)

def grad_fwd [n] [m] (g: ([n]f64, [m]f64) -> [n]f64) (xs: [n]f64) (ys: [m]f64) =
  let dx = tabulate n (\j -> f64.sum (jvp g (xs, ys) (replicate n 0 with [j] = 1, replicate m 0)))
  let dy = tabulate m (\i -> f64.sum (jvp g (xs, ys) (replicate n 0, replicate m 0 with [i] = 1)))
  in (dx, dy)

entry sum_rev [n] [m] (xs: [n]f64) (ys: [m]f64) : ([n]f64, [m]f64) = grad_rev sums xs ys
entry sum_fwd [n] [m] (xs: [n]f64) (ys: [m]f64) : ([n]f64, [m]f64) = grad_fwd sums xs ys
entry prod_rev [n] [m] (xs: [n]f64) (ys: [m]f64) : ([n]f64, [m]f64) = grad_rev prods xs ys
entry prod_fwd [n] [m] (xs: [n]f64) (ys: [m]f64) : ([n]f64, [m]f64) = grad_fwd prods xs ys

entry scatter_rev [n] [m] (xs: [n]f64) (is: [m]i64) (ys: [m]f64) : ([n]f64, [m]f64) =
  grad_rev (writes is) xs ys

entry scatter_fwd [n] [m] (xs: [n]f64) (is: [m]i64) (ys: [m]f64) : ([n]f64, [m]f64) =
  grad_fwd (writes is) xs ys
