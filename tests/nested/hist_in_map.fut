-- A histogram computed for every row, and a scatter per row.
-- ==
-- entry: row_hists
-- input { 3i64 [[0i64, 1i64, 1i64, 2i64], [2i64, 2i64, 2i64, 5i64]] } output { [[1i32, 2i32, 1i32], [0i32, 0i32, 3i32]] }
-- entry: row_scatter
-- input { [[0i32, 0i32, 0i32], [1i32, 1i32, 1i32]] [[2i64, 0i64], [1i64, 9i64]] [[5i32, 6i32], [7i32, 8i32]] } output { [[6i32, 0i32, 5i32], [1i32, 7i32, 1i32]] }

entry row_hists [m] (k: i64) (iss: [][m]i64) : [][]i32 =
  map (\is -> hist (+) 0 k is (replicate m 1)) iss

entry row_scatter [n] [k] [m] (dest: [n][k]i32) (iss: [n][m]i64) (vss: [n][m]i32) : [n][k]i32 =
  map3 (\d is vs -> scatter (copy d) is vs) dest iss vss
