-- Derivatives through flatmap in both modes: a scalar function of the
-- data and the values, and the data itself (its length given).
-- ==
-- entry: total_rev total_fwd
-- input { [2i64, 1i64] [2f64, 3f64] }
-- output { 42f64 [24f64, 12f64] }
-- entry: data_rev data_fwd
-- input { [2i64, 0i64, 1i64] [2f64, 5f64, 3f64] }
-- output { [3f64, 0f64, 1f64] }

-- Segment i is x_i * [1, 2, …, k_i]; its value is x_i^2.
def segs [n] (ks: [n]i64) (xs: [n]f64) =
  flatmap (\(k, x) -> (map (\j -> x * f64.i64 (j + 1)) (iota k), x * x)) (zip ks xs)

def total [n] (ks: [n]i64) (xs: [n]f64) : f64 =
  let (_, _, _, d, v) = segs ks xs
  in f64.sum (map (\y -> y * y) d) + f64.sum v

entry total_rev [n] (ks: [n]i64) (xs: [n]f64) : (f64, [n]f64) =
  (total ks xs, vjp (total ks) xs 1)

entry total_fwd [n] (ks: [n]i64) (xs: [n]f64) : (f64, [n]f64) =
  (total ks xs, tabulate n (\i -> jvp (total ks) xs (replicate n 0 with [i] = 1)))

def data [n] (m: i64) (ks: [n]i64) (xs: [n]f64) : [m]f64 =
  let (_, _, _, d, _) = segs ks xs
  in sized m d

-- The sum of each Jacobian column.
entry data_rev [n] (ks: [n]i64) (xs: [n]f64) : [n]f64 =
  let m = i64.sum ks
  in vjp (data m ks) xs (replicate m 1)

entry data_fwd [n] (ks: [n]i64) (xs: [n]f64) : [n]f64 =
  let m = i64.sum ks
  in tabulate n (\i -> f64.sum (jvp (data m ks) xs (replicate n 0 with [i] = 1)))
