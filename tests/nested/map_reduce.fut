-- map of reduce: per-row sums, maxima, argmins and counts.
-- ==
-- entry: row_sums
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [6i32, 15i32] }
-- input { empty([0][3]i32) } output { empty([0]i32) }
-- input { [[1i32], [2i32]] } output { [1i32, 2i32] }
-- entry: row_max_f64
-- input { [[1.5f64, -2.0f64], [-7.0f64, -3.5f64], [0.0f64, 0.25f64]] } output { [1.5f64, -3.5f64, 0.25f64] }
-- entry: row_argmin
-- input { [[3i32, 1i32, 2i32], [5i32, 5i32, 4i32], [0i32, 0i32, 0i32]] } output { [1i64, 2i64, 0i64] }
-- entry: positives_per_row
-- input { [[1i32, -1i32, 2i32], [-3i32, -4i32, 0i32]] } output { [2i64, 0i64] }

entry row_sums (m: [][]i32) : []i32 = map (\r -> reduce (+) 0 r) m

entry row_max_f64 (m: [][]f64) : []f64 = map (reduce f64.max (-f64.inf)) m

entry row_argmin [n] [k] (m: [n][k]i32) : []i64 =
  let op (a: i32, i: i64) (b: i32, j: i64) : (i32, i64) =
    if a < b || (a == b && i < j) then (a, i) else (b, j)
  in map (\r -> (reduce op (i32.highest, k) (zip r (iota k))).1) m

entry positives_per_row (m: [][]i32) : []i64 = map (\r -> length (filter (> 0) r)) m
