-- flatmap with segments of tuples and of rows, and flatmap' (no values).
-- ==
-- entry: tuples
-- input { [2i64, 0i64, 1i64] [1.5f32, 2.5f32, 3.5f32] }
-- output { [1.5f32, 1.5f32, 3.5f32] [0i32, 1i32, 0i32] [true, false, true] }
-- entry: rows
-- input { [1i64, 2i64] [[1i32, 2i32], [3i32, 4i32]] }
-- output { [[1i32, 2i32], [3i32, 4i32], [6i32, 8i32]] [2i64, 4i64] }
-- entry: no_values
-- input { [3i64, 1i64] }
-- output { [3i64, 1i64] [true, false, false, true] [0i64, 3i64] [2i64, 1i64, 0i64, 0i64] }

entry tuples [n] (ks: [n]i64) (xs: [n]f32) : ([]f32, []i32, []bool) =
  let (_, flags, _, d, _) =
    flatmap (\(k, x) -> (zip (replicate k x) (map i32.i64 (iota k)), ())) (zip ks xs)
  let (a, b) = unzip d
  in (a, b, flags)

-- Segment j of row r is (j + 1) * r.
entry rows [n] [m] (ks: [n]i64) (xss: [n][m]i32) : ([][m]i32, [n]i64) =
  let (_, _, _, d, v) =
    flatmap (\(k, xs) -> (map (\j -> map (* i32.i64 (j + 1)) xs) (iota k), k * m)) (zip ks xss)
  in (d, v)

entry no_values (ks: []i64) : ([]i64, []bool, []i64, []i64) = flatmap' (\k -> reverse (iota k)) ks
