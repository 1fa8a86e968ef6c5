-- zip, zip3, unzip and unzip3.
-- ==
-- entry: swap
-- input { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] } output { [4i32, 5i32, 6i32] [1i32, 2i32, 3i32] }
-- entry: zip3_sum
-- input { [1i32, 2i32] [3i32, 4i32] [5i32, 6i32] } output { [8i32, 14i32] }
-- entry: unzip3_test
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] [0i64, 1i64, 4i64, 9i64] [0i64, -1i64, -2i64, -3i64] }
-- input { 0i64 } output { empty([0]i64) empty([0]i64) empty([0]i64) }

entry swap [n] (xs: [n]i32) (ys: [n]i32) : ([]i32, []i32) =
  unzip (map (\(x, y) -> (y, x)) (zip xs ys))

entry zip3_sum [n] (xs: [n]i32) (ys: [n]i32) (zs: [n]i32) : []i32 =
  map (\(a, b, c) -> a * b + c) (zip3 xs ys zs)

entry unzip3_test (n: i64) : ([]i64, []i64, []i64) =
  unzip3 (map (\i -> (i, i * i, -i)) (iota n))
