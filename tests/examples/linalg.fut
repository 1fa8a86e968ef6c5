-- Dense linear-algebra kernels: matrix-vector and vector-matrix products,
-- outer product, quadratic form and the Gram matrix AᵀA.
-- ==
-- entry: matvec
-- input { [[1.0f64, 2.0f64, 3.0f64], [4.0f64, 5.0f64, 6.0f64]] [1.0f64, 0.5f64, -1.0f64] } output { [-1.0f64, 0.5f64] }
-- entry: vecmat
-- input { [[1.0f64, 2.0f64, 3.0f64], [4.0f64, 5.0f64, 6.0f64]] [2.0f64, -1.0f64] } output { [-2.0f64, -1.0f64, 0.0f64] }
-- entry: outer
-- input { [1.0f64, 2.0f64] [3.0f64, 4.0f64, 5.0f64] } output { [[3.0f64, 4.0f64, 5.0f64], [6.0f64, 8.0f64, 10.0f64]] }
-- entry: quadform
-- input { [[2.0f64, 1.0f64], [1.0f64, 3.0f64]] [1.0f64, -2.0f64] } output { 10.0f64 }
-- entry: gram
-- input { [[1.0f64, 2.0f64], [3.0f64, 4.0f64], [5.0f64, 6.0f64]] } output { [[35.0f64, 44.0f64], [44.0f64, 56.0f64]] }

def dot [n] (a: [n]f64) (b: [n]f64) : f64 = f64.sum (map2 (*) a b)

entry matvec [n] [m] (a: [n][m]f64) (x: [m]f64) : [n]f64 = map (dot x) a

entry vecmat [n] [m] (a: [n][m]f64) (y: [n]f64) : [m]f64 = map (dot y) (transpose a)

entry outer [n] [m] (x: [n]f64) (y: [m]f64) : [n][m]f64 = map (\a -> map (* a) y) x

entry quadform [n] (a: [n][n]f64) (x: [n]f64) : f64 = dot x (map (dot x) a)

entry gram [n] [m] (a: [n][m]f64) : [m][m]f64 =
  let at = transpose a
  in map (\r -> map (dot r) at) at
