-- The adjoint of matrix multiplication on random matrices: `c · bᵀ` and
-- `aᵀ · c`, computed through `vjp` (whose accumulator updates the
-- optimiser turns into reductions) and directly, agree.
-- ==
-- entry: agrees
-- random input { [7][5]f64 [5][3]f64 [7][3]f64 } output { true }
-- random input { [1][9]f64 [9][1]f64 [1][1]f64 } output { true }
-- random input { [16][16]f64 [16][16]f64 [16][16]f64 } output { true }

def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

def close [n][m] (x: [n][m]f64) (y: [n][m]f64) : bool =
  and (map2 (\r s -> and (map2 (\u v -> f64.abs (u - v) <= 1e-9 * (1.0 + f64.abs v)) r s)) x y)

entry agrees [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (c: [n][p]f64) : bool =
  let (da, db) = vjp (\(a, b) -> matmul a b) (a, b) c
  in close da (matmul c (transpose b)) && close db (matmul (transpose a) c)
