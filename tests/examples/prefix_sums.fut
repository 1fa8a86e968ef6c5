-- Prefix sums and things built from them: exclusive scan, running mean,
-- segment sums from flags, and maximum drawdown of a series.
-- ==
-- entry: inclusive_exclusive
-- input { [3i64, 1i64, 4i64, 1i64, 5i64] } output { [3i64, 4i64, 8i64, 9i64, 14i64] [0i64, 3i64, 4i64, 8i64, 9i64] }
-- input { empty([0]i64) } output { empty([0]i64) empty([0]i64) }
-- entry: running_mean
-- input { [2.0f64, 4.0f64, 9.0f64, -3.0f64] } output { [2.0f64, 3.0f64, 5.0f64, 3.0f64] }
-- entry: segment_sums
-- input { [true, false, true, false, false, true] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [3i32, 12i32, 6i32] }
-- entry: max_drawdown
-- input { [1.0f64, 3.0f64, 2.0f64, 5.0f64, 1.5f64, 4.0f64] } output { 3.5f64 }

entry inclusive_exclusive [n] (xs: [n]i64) : ([n]i64, [n]i64) =
  let inc = scan (+) 0 xs
  let exc = map2 (-) inc xs
  in (inc, exc)

entry running_mean [n] (xs: [n]f64) : [n]f64 =
  map2 (\s i -> s / f64.i64 (i + 1)) (scan (+) 0.0 xs) (iota n)

-- The sum of each segment, a segment starting at every true flag (the
-- first flag must be true).
entry segment_sums [n] (flags: [n]bool) (xs: [n]i32) : []i32 =
  let op (f1: bool, x1: i32) (f2: bool, x2: i32) : (bool, i32) =
    (f1 || f2, if f2 then x2 else x1 + x2)
  let sums = map (.1) (scan op (false, 0) (zip flags xs))
  let is_last = map (\i -> i == n - 1 || flags[i + 1]) (iota n)
  in map (.1) (filter (.0) (zip is_last sums))

entry max_drawdown [n] (xs: [n]f64) : f64 =
  let peaks = scan f64.max (-f64.inf) xs
  in f64.maximum (map2 (-) peaks xs)
