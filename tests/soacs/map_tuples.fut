-- map with tuple results (unzipped afterwards), tuple arguments, and
-- array results giving a two-dimensional array.
-- ==
-- entry: stats
-- input { [1.5f64, -2.0f64, 0.0f64] } output { [2.25f64, 4.0f64, 0.0f64] [-1.5f64, 2.0f64, -0.0f64] [true, false, false] }
-- entry: rows
-- input { 3i64 [1i32, -2i32] } output { [[0i32, 1i32, 2i32], [0i32, -2i32, -4i32]] }
-- input { 0i64 [4i32, 5i32] } output { empty([2][0]i32) }
-- entry: pairs
-- input { [1i32, 2i32, 3i32] [10i32, 20i32, 30i32] } output { [10i32, 20i32, 30i32] [11i32, 22i32, 33i32] }

entry stats (xs: []f64) : ([]f64, []f64, []bool) =
  unzip3 (map (\x -> (x * x, -x, x > 0.0)) xs)

entry rows (n: i64) (xs: []i32) : [][]i32 =
  map (\x -> map (\j -> x * i32.i64 j) (iota n)) xs

entry pairs [n] (xs: [n]i32) (ys: [n]i32) : ([]i32, []i32) =
  unzip (map (\(a, b) -> (b, a + b)) (zip xs ys))
