-- Differentiating `unflatten` and functions around it; the sizes come
-- from the entry points' types.
-- ==
-- entry: unflat_jvp
-- input { 2i64 2i64 [1f64, 2f64, 3f64, 4f64] [1f64, 0f64, 0f64, 2f64] }
-- output { [[1f64, 0f64], [0f64, 2f64]] }
-- entry: unflat_vjp
-- input { 1i64 3i64 [1f64, 2f64, 3f64] } output { [1f64, 2f64, 3f64] }
-- entry: squares_vjp
-- input { 2i64 2i64 [1f64, 2f64, 3f64, 4f64] [[1f64, 1f64], [1f64, 0f64]] }
-- output { [2f64, 4f64, 6f64, 0f64] }
-- entry: rows_jvp
-- input { [[1f64, 2f64], [3f64, 4f64]] [[1f64, 1f64], [0f64, 1f64]] }
-- output { [[2f64, 4f64], [0f64, 8f64]] }

entry unflat_jvp (r: i64) (c: i64) (xs: [r * c]f64) (dxs: [r * c]f64) : [r][c]f64 =
  jvp unflatten xs dxs

entry unflat_vjp (r: i64) (c: i64) (xs: [r * c]f64) : [r * c]f64 =
  vjp unflatten xs (unflatten xs)

entry squares_vjp (r: i64) (c: i64) (xs: [r * c]f64) (seed: [r][c]f64) : [r * c]f64 =
  vjp (\ys -> map (map (\y -> y * y)) (unflatten ys)) xs seed

entry rows_jvp [n] [m] (xss: [n][m]f64) (dxss: [n][m]f64) : [n][m]f64 =
  jvp (\a -> unflatten (map (\x -> x * x) (flatten a))) xss dxss
