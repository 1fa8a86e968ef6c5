-- hist with several operators; indices outside [0, k) are ignored.
-- ==
-- entry: hist_add
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, -1i64, 4i64, 100i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32] } output { [1i32, 5i32, 0i32, 4i32] }
-- input { 2i64 empty([0]i64) empty([0]i32) } output { [0i32, 0i32] }
-- entry: hist_max
-- input { 3i64 [2i64, 2i64, 0i64, 5i64] [1.5f32, -0.5f32, 2.0f32, 100.0f32] } output { [2.0f32, -f32.inf, 1.5f32] }
-- entry: hist_count
-- input { 5i64 [4i64, 4i64, 0i64, 2i64, 4i64, -3i64] } output { [1i32, 0i32, 1i32, 0i32, 3i32] }
-- entry: hist_min_pair
-- input { 2i64 [0i64, 1i64, 0i64, 1i64] [5i32, 3i32, -2i32, 8i32] } output { [-2i32, 3i32] [2i32, 2i32] }

entry hist_add [n] (k: i64) (is: [n]i64) (vs: [n]i32) : []i32 = hist (+) 0 k is vs

entry hist_max [n] (k: i64) (is: [n]i64) (vs: [n]f32) : []f32 = hist f32.max (-f32.inf) k is vs

entry hist_count [n] (k: i64) (is: [n]i64) : []i32 = hist (+) 0 k is (replicate n 1)

-- A tuple operator: per bucket, the minimum and the number of elements.
entry hist_min_pair [n] (k: i64) (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  unzip (hist (\(a, n) (b, m) -> (i32.min a b, n + m)) (i32.highest, 0) k is (map (\v -> (v, 1)) vs))
