-- scatter and scatter_2d; writes to out-of-bounds indices are ignored.
-- ==
-- entry: scatter1
-- input { [0i32, 0i32, 0i32, 0i32] [3i64, 0i64, -1i64, 4i64] [7i32, 8i32, 9i32, 10i32] } output { [8i32, 0i32, 0i32, 7i32] }
-- input { [1i32, 2i32] empty([0]i64) empty([0]i32) } output { [1i32, 2i32] }
-- entry: scatter2
-- input { [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32]] [0i64, 1i64, 1i64, 2i64] [2i64, 0i64, 3i64, 0i64] [1.5f32, 2.5f32, 3.5f32, 4.5f32] } output { [[0.0f32, 0.0f32, 1.5f32], [2.5f32, 0.0f32, 0.0f32]] }
-- entry: fresh
-- input { 5i64 [4i64, 1i64, 1i64, 10i64] } output { [0i64, 10i64, 0i64, 0i64, 40i64] }

entry scatter1 [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) : []i32 = scatter dest is vs

entry scatter2 [n] (dest: *[][]f32) (is: [n]i64) (js: [n]i64) (vs: [n]f32) : [][]f32 =
  scatter_2d dest (zip is js) vs

-- Duplicate indices write the same value, so the result is determined.
entry fresh (n: i64) (is: []i64) : []i64 = scatter (replicate n 0) is (map (* 10) is)
