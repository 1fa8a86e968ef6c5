-- Matrix multiplication and matrix-vector products.
-- ==
-- entry: matmul_i32
-- input { [[1i32, 2i32], [3i32, 4i32]] [[5i32, 6i32], [7i32, 8i32]] } output { [[19i32, 22i32], [43i32, 50i32]] }
-- input { [[1i32, 0i32, 2i32]] [[1i32], [2i32], [3i32]] } output { [[7i32]] }
-- entry: matmul_f64
-- input { [[0.5f64, -1.0f64, 2.0f64], [1.0f64, 0.0f64, 0.25f64]] [[2.0f64, 1.0f64], [4.0f64, -3.0f64], [0.5f64, 8.0f64]] } output { [[-2.0f64, 19.5f64], [2.125f64, 3.0f64]] }
-- entry: matvec
-- input { [[1.0f32, 2.0f32], [3.0f32, 4.0f32], [5.0f32, 6.0f32]] [0.5f32, -1.0f32] } output { [-1.5f32, -2.5f32, -3.5f32] }

def dotprod [n] (xs: [n]f64) (ys: [n]f64) : f64 = reduce (+) 0.0 (map2 (*) xs ys)

entry matmul_i32 [n] [m] [p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a

entry matmul_f64 [n] [m] [p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (dotprod row) (transpose b)) a

entry matvec [n] [m] (a: [n][m]f32) (v: [m]f32) : [n]f32 =
  map (\row -> f32.sum (map2 (*) row v)) a
