-- map of scan: row-wise and column-wise prefix sums, and a row-wise
-- running maximum together with a running count.
-- ==
-- entry: row_prefix
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[1i32, 3i32, 6i32], [4i32, 9i32, 15i32]] }
-- entry: col_prefix
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[1i32, 2i32, 3i32], [5i32, 7i32, 9i32]] }
-- entry: running_max
-- input { [[1.0f64, 3.0f64, 2.0f64], [-1.0f64, -2.0f64, 0.5f64]] } output { [[1.0f64, 3.0f64, 3.0f64], [-1.0f64, -1.0f64, 0.5f64]] [[1i32, 2i32, 3i32], [1i32, 2i32, 3i32]] }

entry row_prefix (m: [][]i32) : [][]i32 = map (scan (+) 0) m

entry col_prefix (m: [][]i32) : [][]i32 = transpose (map (scan (+) 0) (transpose m))

entry running_max (m: [][]f64) : ([][]f64, [][]i32) =
  let step (a: f64, n: i32) (b: f64, k: i32) : (f64, i32) = (f64.max a b, n + k)
  in unzip (map (\r -> unzip (scan step (-f64.inf, 0) (map (\x -> (x, 1)) r))) m)
