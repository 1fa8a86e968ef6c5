-- One step of k-means clustering: assign every point to its nearest
-- centre (ties go to the lower index), then move each centre to the mean
-- of its points; a centre without points stays where it was.  Also the
-- clustering cost, the sum of squared distances to the nearest centre.
-- ==
-- entry: step
-- input { [[0.0f64, 0.0f64], [1.0f64, 0.0f64], [10.0f64, 10.0f64], [11.0f64, 9.0f64], [0.0f64, 1.0f64]]
--         [[0.5f64, 0.5f64], [9.0f64, 9.0f64], [100.0f64, 100.0f64]] }
-- output { [[0.3333333333333333f64, 0.3333333333333333f64], [10.5f64, 9.5f64], [100.0f64, 100.0f64]] [0i64, 0i64, 1i64, 1i64, 0i64] }
-- entry: cost
-- input { [[0.0f64, 0.0f64], [1.0f64, 0.0f64], [10.0f64, 10.0f64], [11.0f64, 9.0f64], [0.0f64, 1.0f64]]
--         [[0.5f64, 0.5f64], [9.0f64, 9.0f64], [100.0f64, 100.0f64]] }
-- output { 7.5f64 }
-- input { [[1.0f64, 2.0f64, 3.0f64]] [[1.0f64, 2.0f64, 3.0f64], [0.0f64, 0.0f64, 0.0f64]] }
-- output { 0.0f64 }

def dist2 [d] (a: [d]f64) (b: [d]f64) : f64 =
  f64.sum (map2 (\x y -> (x - y) * (x - y)) a b)

def closest [k] [d] (cs: [k][d]f64) (p: [d]f64) : i64 =
  let better (d1: f64, i1: i64) (d2: f64, i2: i64) : (f64, i64) =
    if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2)
  in (reduce better (f64.inf, k) (zip (map (dist2 p) cs) (iota k))).1

entry step [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : ([k][d]f64, [n]i64) =
  let assign = map (closest centres) points
  let counts = hist (+) 0 k assign (replicate n 1i64)
  let sums = reduce_by_index (replicate k (replicate d 0.0)) (map2 (+)) (replicate d 0.0) assign points
  let new = map3 (\s c old -> if c == 0 then old else map (/ f64.i64 c) s) sums counts centres
  in (new, assign)

entry cost [n] [k] [d] (points: [n][d]f64) (centres: [k][d]f64) : f64 =
  f64.sum (map (\p -> f64.minimum (map (dist2 p) centres)) points)
