-- Parallel maps inside a sequential loop: repeated smoothing of a vector
-- with fixed end points, and repeated matrix-vector multiplication.
-- ==
-- entry: smooth
-- input { 1i32 [0.0f64, 4.0f64, 8.0f64, 0.0f64] } output { [0.0f64, 4.0f64, 5.0f64, 0.0f64] }
-- input { 3i32 [0.0f64, 4.0f64, 8.0f64, 0.0f64] } output { [0.0f64, 2.5f64, 2.5625f64, 0.0f64] }
-- input { 0i32 [1.0f64, 2.0f64] } output { [1.0f64, 2.0f64] }
-- entry: mat_power
-- input { 5i32 [[1i64, 1i64], [1i64, 0i64]] [1i64, 0i64] } output { [8i64, 5i64] }

entry smooth [n] (iters: i32) (xs: [n]f64) : [n]f64 =
  loop v = xs for _i < iters do
    tabulate n (\i -> if i == 0 || i == n - 1 then v[i]
                      else (v[i - 1] + 2.0 * v[i] + v[i + 1]) / 4.0)

entry mat_power [n] (k: i32) (m: [n][n]i64) (v: [n]i64) : [n]i64 =
  loop w = v for _i < k do map (\row -> reduce (+) 0 (map2 (*) row w)) m
