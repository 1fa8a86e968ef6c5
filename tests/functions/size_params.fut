-- Size parameters used as ordinary i64 values, and sizes bound by let.
-- ==
-- entry: sizes
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { 2i64 3i64 6i64 [2i64, 2i64, 2i64] }
-- input { empty([0][4]i32) } output { 0i64 4i64 0i64 [0i64, 0i64, 0i64, 0i64] }
-- entry: dot
-- input { [1.0f64, 2.0f64, 3.0f64] [4.0f64, -5.0f64, 0.5f64] } output { -4.5f64 }
-- entry: centre
-- input { [1.0f64, 2.0f64, 6.0f64] } output { [-2.0f64, -1.0f64, 3.0f64] }
-- entry: count_kept
-- input { [3i32, -1i32, 4i32, -1i32, 5i32] } output { 3i64 [6i32, 7i32, 8i32] }

def dims [n] [m] 't (_: [n][m]t) : (i64, i64) = (n, m)

def dotp [n] (xs: [n]f64) (ys: [n]f64) : f64 = reduce (+) 0.0 (map2 (*) xs ys)

entry sizes [n] [m] (a: [n][m]i32) : (i64, i64, i64, []i64) =
  let (r, c) = dims a
  in (r, c, n * m, replicate m n)

entry dot [n] (xs: [n]f64) (ys: [n]f64) : f64 = dotp xs ys

entry centre [n] (xs: [n]f64) : [n]f64 =
  let mean = reduce (+) 0.0 xs / f64.i64 n
  in map (\x -> x - mean) xs

entry count_kept (xs: []i32) : (i64, []i32) =
  let [k] (kept: [k]i32) = filter (> 0) xs
  in (k, map (+ i32.i64 k) kept)
