-- k-means by Newton's method on the clustering cost
-- f(C) = sum_p min_j |p - C_j|^2 (as in tests/realistic/kmeans.fut): the
-- cost, its gradient by vjp, and one Newton step, whose Hessian diagonal
-- is computed by jvp of vjp (the Hessian is diagonal: 2 * count_j on the
-- coordinates of centre j). The Newton step is Lloyd's update.
--
-- Inputs: points [n][d]f64 and centres [k][d]f64. The kdd_cup set
-- (benchmarks/tools/prepare.py converts its f32 points to f64) starts
-- from the last k points in reverse order, as futhark-ad's program does.
-- ==
-- entry: cost gradient newton_step
-- input @ ../data/kmeans_small.in

def sqdist [d] (a: [d]f64) (b: [d]f64) : f64 =
  f64.sum (map2 (\x y -> (x - y) * (x - y)) a b)

def kcost [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : f64 =
  f64.sum (map (\p -> f64.minimum (map (sqdist p) centres)) points)

def grad [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : [k][d]f64 =
  vjp (kcost points) centres 1

entry cost [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : f64 =
  kcost points centres

entry gradient [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : [k][d]f64 =
  grad points centres

-- A centre with no points has a zero Hessian: it stays where it is.
entry newton_step [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : [k][d]f64 =
  let (g, h) = jvp2 (grad points) centres (replicate k (replicate d 1))
  in map3 (map3 (\c gi hi -> if hi == 0 then c else c - gi / hi)) centres g h
