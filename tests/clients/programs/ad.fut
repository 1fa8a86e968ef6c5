-- Derivatives through Futhark's C API: entry points built with `vjp` and
-- `jvp`, whose results tests/clients/test_ffi.py checks against
-- derivatives worked out by hand.
--   cubes xs = sum (x^3):           gradient 3 x^2, directional sum 3 x^2 v
--   bilinear a b = a^2 b + 3 a:     gradient (2 a b + 3, a^2)
--   loss m x = sum (m x):           d/dm = outer(1, x), d/dx = column sums of m
-- ==
-- entry: cubes_grad
-- input { [1.0f64, -2.0f64, 0.5f64] } output { [3.0f64, 12.0f64, 0.75f64] }
-- entry: bilinear_grad
-- input { 2.0f64 5.0f64 } output { [23.0f64, 4.0f64] }

def cubes (xs: []f64) : f64 = f64.sum (map (\x -> x * x * x) xs)

entry cubes_grad [n] (xs: [n]f64) : [n]f64 = vjp cubes xs 1.0

entry cubes_dir [n] (xs: [n]f64) (v: [n]f64) : f64 = jvp cubes xs v

entry bilinear_grad (a: f64) (b: f64) : [2]f64 =
  let (da, db) = vjp (\(x, y) -> x * x * y + 3 * x) (a, b) 1.0
  in [da, db]

def loss [n][m] (mat: [n][m]f64) (x: [m]f64) : f64 =
  f64.sum (map (\row -> f64.sum (map2 (*) row x)) mat)

entry loss_grad_mat [n][m] (mat: [n][m]f64) (x: [m]f64) : [n][m]f64 =
  vjp (\mm -> loss mm x) mat 1.0

entry loss_grad_vec [n][m] (mat: [n][m]f64) (x: [m]f64) : [m]f64 =
  vjp (loss mat) x 1.0

-- f32 as well: d/dx (x^2 / 2) = x, exactly.
entry halfsq_grad (xs: []f32) : []f32 =
  map (\x -> vjp (\y -> y * y / 2) x 1) xs
