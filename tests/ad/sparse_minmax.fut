-- min/max reductions give one-point (sparse) adjoints; a map whose result
-- has such an adjoint differentiates only that iteration. Values by hand.

def dist (p: []f64) (c: []f64) : f64 = f64.sum (map2 (\a b -> (a - b) * (a - b)) p c)

-- k-means cost: every point's squared distance to its nearest centre.
-- p0 = (0,0) is nearest c0 = (1,0) (1 < 25), p1 = (3,3) nearest c1 = (3,4)
-- (1 < 13): the gradient is 2(c - p) for the chosen pairs; with two equal
-- centres the first one takes both points: 2((1,0)-(0,0)) + 2((1,0)-(3,3)).
-- ==
-- entry: kmeans_grad
-- input { [[0.0, 0.0], [3.0, 3.0]] [[1.0, 0.0], [3.0, 4.0]] }
-- output { [[2.0, 0.0], [0.0, 2.0]] }
-- input { [[0.0, 0.0], [3.0, 3.0]] [[1.0, 0.0], [1.0, 0.0]] }
-- output { [[-2.0, -6.0], [0.0, 0.0]] }
-- input { [[0.0, 0.0]] empty([0][2]f64) }
-- output { empty([0][2]f64) }
entry kmeans_grad [n] [k] [d] (ps: [n][d]f64) (cs: [k][d]f64) : [k][d]f64 =
  vjp (\cs -> f64.sum (map (\p -> f64.minimum (map (dist p) cs)) ps)) cs 1

-- the same through the points: d/dp of the nearest squared distance is 2(p - c)
-- ==
-- entry: kmeans_grad_points
-- input { [[0.0, 0.0], [3.0, 3.0]] [[1.0, 0.0], [3.0, 4.0]] }
-- output { [[-2.0, 0.0], [0.0, -2.0]] }
entry kmeans_grad_points [n] [k] [d] (ps: [n][d]f64) (cs: [k][d]f64) : [n][d]f64 =
  vjp (\ps -> f64.sum (map (\p -> f64.minimum (map (dist p) cs)) ps)) ps 1

-- maximum of a map of a map: only the maximal row's iteration contributes
-- x = [1, 3, 2]: max of x_i^2 is 9 at i = 1, derivative 2·3 = 6
-- ==
-- entry: max_square
-- input { [1.0, 3.0, 2.0] } output { [0.0, 6.0, 0.0] }
-- input { [-3.0, 3.0] } output { [-6.0, 0.0] }
entry max_square (xs: []f64) : []f64 = vjp (\xs -> f64.maximum (map (\x -> x * x) xs)) xs 1

-- the sparse adjoint also meets an ordinary one: d/dx (max x + sum x)
-- ==
-- entry: max_plus_sum
-- input { [1.0, 3.0, 2.0] } output { [1.0, 2.0, 1.0] }
entry max_plus_sum (xs: []f64) : []f64 =
  vjp (\xs -> let ys = map (\x -> x + 0) xs in f64.maximum ys + f64.sum ys) xs 1
