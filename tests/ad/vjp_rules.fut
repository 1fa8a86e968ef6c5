-- Reverse-mode AD (vjp) of each construct, against gradients derived by
-- hand (tests/tools/ref_ad.py).

-- map and a sum: d/dx_i sum_j x_j^2 sin x_j
entry sumsq_sin (xs: []f64) : []f64 =
  vjp (\xs -> reduce (+) 0 (map (\x -> x * x * f64.sin x) xs)) xs 1

-- product with zeros: exact, no division by zero
entry product (xs: []f64) : []f64 = vjp (reduce (*) 1) xs 1

-- maximum: the whole adjoint goes to the first maximal element
entry maximum (xs: []f64) : []f64 = vjp (reduce f64.max (-f64.inf)) xs 1

-- matrix-vector product, adjoints of both the matrix and the vector
entry matvec [n] [m] (a: [n][m]f64) (x: [m]f64) (ybar: [n]f64) : ([n][m]f64, [m]f64) =
  vjp (\(a, x) -> map (\r -> reduce (+) 0 (map2 (*) r x)) a) (a, x) ybar

-- a sequential loop carrying a scalar
entry loop_poly (x: f64) : f64 =
  vjp (\x -> loop y = x for i < 3 do y * y + f64.i64 i) x 1

-- histogram with +, out-of-bounds indices contribute nothing
entry histogram [n] (is: [n]i64) (vs: [n]f64) (ybar: [3]f64) : [n]f64 =
  vjp (\vs -> reduce_by_index (replicate 3 0) (+) 0 is vs) vs ybar

-- a branch on the input
entry branch (x: f64) : f64 = vjp (\x -> if x > 0 then x * x * x else f64.exp x) x 1

-- primal and gradient at once
entry with_primal (x: f64) (y: f64) : (f64, (f64, f64)) =
  vjp2 (\(x, y) -> f64.log (x * y) + x / y) (x, y) 1

-- ==
-- entry: sumsq_sin
-- input { [1.0, 2.0, -0.5] } output { [2.2232442754839328f64, 1.9726023611141572f64, 0.6988211790767962f64] }
-- input { empty([0]f64) } output { empty([0]f64) }
-- entry: product
-- input { [2.0, 3.0, 4.0] } output { [12.0f64, 8.0f64, 6.0f64] }
-- input { [1.0, 0.0, 3.0] } output { [0.0f64, 3.0f64, 0.0f64] }
-- input { [0.0, 2.0, 0.0] } output { [0.0f64, 0.0f64, 0.0f64] }
-- entry: maximum
-- input { [1.0, 5.0, 3.0, 5.0] } output { [0.0f64, 1.0f64, 0.0f64, 0.0f64] }
-- entry: matvec
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [0.5, -1.0] [1.0, 2.0, 3.0] } output { [[0.5f64, -1.0f64], [1.0f64, -2.0f64], [1.5f64, -3.0f64]] [22.0f64, 28.0f64] }
-- entry: loop_poly
-- input { 0.5 } output { 1.0625f64 }
-- input { -1.5 } output { -163.6875f64 }
-- entry: histogram
-- input { [0i64, 2i64, 7i64, 2i64, -1i64] [1.0, 2.0, 3.0, 4.0, 5.0] [10.0, 20.0, 30.0] } output { [10.0f64, 30.0f64, 0.0f64, 30.0f64, 0.0f64] }
-- entry: branch
-- input { 2.0 } output { 12.0f64 }
-- input { -1.0 } output { 0.36787944117144233f64 }
-- entry: with_primal
-- input { 2.0 4.0 } output { 2.5794415416798357f64 0.75f64 0.125f64 }
