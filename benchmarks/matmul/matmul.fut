-- Dense matrix multiplication written with maps and a sum, and its
-- reverse-mode derivative: the shape that seed 001 §6.1 turns from
-- accumulator updates into two more matrix multiplications.
-- ==
-- entry: primal gradient
-- random input { [32][32]f64 [32][32]f64 [32][32]f64 }
-- compiled random input { [256][256]f64 [256][256]f64 [256][256]f64 }
-- compiled random input { [1024][1024]f64 [1024][1024]f64 [1024][1024]f64 }

def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

-- The seed `c` of the gradient is unused here; it keeps both entries on
-- the same datasets.
entry primal [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (_c: [n][p]f64) : [n][p]f64 =
  matmul a b

-- The adjoints of both factors for the output adjoint `c`.
entry gradient [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (c: [n][p]f64) : ([n][m]f64, [m][p]f64) =
  vjp (\(a, b) -> matmul a b) (a, b) c
