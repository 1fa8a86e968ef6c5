-- Reverse AD of min/max reductions and histograms over integers at the
-- extreme values of their types, whose neutral elements (t.highest for
-- min, t.lowest for max) are built exactly (u64.highest is 2^64-1).
-- The first extremal element gets the whole adjoint; the neutral element
-- (reduce) or the destination's element (reduce_by_index) wins ties, and
-- then no value gets any. Out-of-bounds values get nothing.
-- Values by hand in the comments, checked by tests/tools/ref_ad.py.

-- reduce: (adjoint through min, adjoint through max), seed 5.
-- [7, u64.highest, 2^63]: min 7 at 0; max at 1.
-- all u64.highest: min ties the neutral element; max at the first.
-- ==
-- entry: red_u64
-- input { [7u64, 18446744073709551615u64, 9223372036854775808u64] }
-- output { [5u64, 0u64, 0u64] [0u64, 5u64, 0u64] }
-- input { [18446744073709551615u64, 18446744073709551615u64] }
-- output { [0u64, 0u64] [5u64, 0u64] }
-- input { [0u64, 0u64] }
-- output { [5u64, 0u64] [0u64, 0u64] }
entry red_u64 (xs: []u64) : ([]u64, []u64) =
  ( vjp (\xs -> reduce u64.min u64.highest xs) xs 5
  , vjp (\xs -> reduce u64.max u64.lowest xs) xs 5 )

-- [i64.highest, i64.lowest, 0]: min at 1, max at 0; both ties of the
-- neutral elements when the extremes are the neutral elements' values.
-- ==
-- entry: red_i64
-- input { [9223372036854775807i64, -9223372036854775808i64, 0i64] }
-- output { [0i64, 5i64, 0i64] [5i64, 0i64, 0i64] }
-- input { [9223372036854775807i64] }
-- output { [0i64] [5i64] }
-- input { [-9223372036854775808i64] }
-- output { [5i64] [0i64] }
entry red_i64 (xs: []i64) : ([]i64, []i64) =
  ( vjp (\xs -> reduce i64.min i64.highest xs) xs 5
  , vjp (\xs -> reduce i64.max i64.lowest xs) xs 5 )

-- ==
-- entry: red_i8
-- input { [3i8, -128i8, 127i8, -128i8] }
-- output { [0i8, 5i8, 0i8, 0i8] [0i8, 0i8, 5i8, 0i8] }
-- input { [127i8, -128i8] }
-- output { [0i8, 5i8] [5i8, 0i8] }
entry red_i8 (xs: []i8) : ([]i8, []i8) =
  ( vjp (\xs -> reduce i8.min i8.highest xs) xs 5
  , vjp (\xs -> reduce i8.max i8.lowest xs) xs 5 )

-- ==
-- entry: red_u8
-- input { [200u8, 255u8, 0u8, 255u8] }
-- output { [0u8, 0u8, 5u8, 0u8] [0u8, 5u8, 0u8, 0u8] }
-- input { [255u8, 255u8] }
-- output { [0u8, 0u8] [5u8, 0u8] }
entry red_u8 (xs: []u8) : ([]u8, []u8) =
  ( vjp (\xs -> reduce u8.min u8.highest xs) xs 5
  , vjp (\xs -> reduce u8.max u8.lowest xs) xs 5 )

-- reduce_by_index into `dst` with bucket adjoints [1, 2, 3]: the
-- adjoints of the destination and of the values through min, then
-- through max.
-- min: bucket 0 {dst u64.highest; u64.highest, 2^63} goes to value 5,
-- bucket 1 {dst 5; 5, 2} to value 3, bucket 2 {dst 0; 3} to dst.
-- max: bucket 0 to dst (a tie), bucket 1 to dst (a tie), bucket 2 to value 2.
-- ==
-- entry: hist_u64
-- input { [18446744073709551615u64, 5u64, 0u64] [0i64, 1i64, 2i64, 1i64, 5i64, 0i64]
--         [18446744073709551615u64, 5u64, 3u64, 2u64, 0u64, 9223372036854775808u64] }
-- output { [0u64, 0u64, 3u64] [0u64, 0u64, 0u64, 2u64, 0u64, 1u64]
--          [1u64, 2u64, 0u64] [0u64, 0u64, 3u64, 0u64, 0u64, 0u64] }
entry hist_u64 [m] [n] (dst: [m]u64) (is: [n]i64) (vs: [n]u64)
    : ([m]u64, [n]u64, [m]u64, [n]u64) =
  let seeds = map (\i -> u64.i64 (i + 1)) (iota m)
  let (dmin, vmin) =
    vjp (\(d, v) -> reduce_by_index (copy d) u64.min u64.highest is v) (dst, vs) seeds
  let (dmax, vmax) =
    vjp (\(d, v) -> reduce_by_index (copy d) u64.max u64.lowest is v) (dst, vs) seeds
  in (dmin, vmin, dmax, vmax)

-- min: bucket 0 {dst i64.lowest; i64.highest} to dst, bucket 1
-- {dst i64.highest; i64.lowest, i64.lowest} to the first value (index 2).
-- max: bucket 0 to value 0, bucket 1 to dst (both values are below it).
-- ==
-- entry: hist_i64
-- input { [-9223372036854775808i64, 9223372036854775807i64] [0i64, -1i64, 1i64, 1i64]
--         [9223372036854775807i64, 0i64, -9223372036854775808i64, -9223372036854775808i64] }
-- output { [1i64, 0i64] [0i64, 0i64, 2i64, 0i64] [0i64, 2i64] [1i64, 0i64, 0i64, 0i64] }
entry hist_i64 [m] [n] (dst: [m]i64) (is: [n]i64) (vs: [n]i64)
    : ([m]i64, [n]i64, [m]i64, [n]i64) =
  let seeds = map (+ 1) (iota m)
  let (dmin, vmin) =
    vjp (\(d, v) -> reduce_by_index (copy d) i64.min i64.highest is v) (dst, vs) seeds
  let (dmax, vmax) =
    vjp (\(d, v) -> reduce_by_index (copy d) i64.max i64.lowest is v) (dst, vs) seeds
  in (dmin, vmin, dmax, vmax)

-- min: bucket 0 {dst 0; -128, 127} to value 0; bucket 1 {dst 127} to dst.
-- max: bucket 0 to value 1; bucket 1 to dst.
-- ==
-- entry: hist_i8
-- input { [0i8, 127i8] [0i64, 0i64, 2i64] [-128i8, 127i8, 1i8] }
-- output { [0i8, 2i8] [1i8, 0i8, 0i8] [0i8, 2i8] [0i8, 1i8, 0i8] }
entry hist_i8 [m] [n] (dst: [m]i8) (is: [n]i64) (vs: [n]i8)
    : ([m]i8, [n]i8, [m]i8, [n]i8) =
  let seeds = map (\i -> i8.i64 (i + 1)) (iota m)
  let (dmin, vmin) =
    vjp (\(d, v) -> reduce_by_index (copy d) i8.min i8.highest is v) (dst, vs) seeds
  let (dmax, vmax) =
    vjp (\(d, v) -> reduce_by_index (copy d) i8.max i8.lowest is v) (dst, vs) seeds
  in (dmin, vmin, dmax, vmax)

-- min: bucket 0 {dst 255; 255, 0} to value 1; bucket 1 {dst 0; 0} to dst.
-- max: bucket 0 to dst (a tie); bucket 1 to dst (a tie).
-- ==
-- entry: hist_u8
-- input { [255u8, 0u8] [0i64, 0i64, 1i64] [255u8, 0u8, 0u8] }
-- output { [0u8, 2u8] [0u8, 1u8, 0u8] [1u8, 2u8] [0u8, 0u8, 0u8] }
entry hist_u8 [m] [n] (dst: [m]u8) (is: [n]i64) (vs: [n]u8)
    : ([m]u8, [n]u8, [m]u8, [n]u8) =
  let seeds = map (\i -> u8.i64 (i + 1)) (iota m)
  let (dmin, vmin) =
    vjp (\(d, v) -> reduce_by_index (copy d) u8.min u8.highest is v) (dst, vs) seeds
  let (dmax, vmax) =
    vjp (\(d, v) -> reduce_by_index (copy d) u8.max u8.lowest is v) (dst, vs) seeds
  in (dmin, vmin, dmax, vmax)
