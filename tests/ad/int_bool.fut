-- Integers and booleans are differentiated as Futhark does: integers with
-- wrapping arithmetic, booleans with || as sum and && as product.
-- Expected values derived by hand in the comments.

-- d/dx x^3 = 3x^2 (x = 5: 75) by a loop of integer products
-- ==
-- entry: cube_jvp cube_vjp
-- input { 5 } output { 75 }
-- input { -2 } output { 12 }
entry cube_jvp (x: i32) : i32 = jvp (\x -> loop acc = 1 for _i < 3 do acc * x) x 1
entry cube_vjp (x: i32) : i32 = vjp (\x -> loop acc = 1 for _i < 3 do acc * x) x 1

-- the derivative of a product wraps around like the product: 2 * 3000000000
-- ==
-- entry: wrap
-- input { 7i64 3000000000i64 } output { 6000000000i64 }
entry wrap (x: i64) (y: i64) : i64 = vjp (\x -> x * y) x 2

-- ==
-- entry: wrap32
-- input { 3i32 2000000000i32 } output { -294967296i32 }
entry wrap32 (x: i32) (y: i32) : i32 = vjp (\x -> x * y) x 2

-- integer division: d(x/y)/dx = 1/y in integer division (0 unless |y| = 1)
-- ==
-- entry: div_x
-- input { 17i64 1i64 } output { 1i64 }
-- input { 17i64 4i64 } output { 0i64 }
entry div_x (x: i64) (y: i64) : i64 = jvp (\x -> x / y) x 1

-- a conversion carries the tangent: d/dx f64(x) * 1.5 = 1.5 (a tangent 2 gives 3)
-- ==
-- entry: conv
-- input { 4 } output { 3.0 }
entry conv (x: i32) : f64 = jvp (\x -> f64.i32 x * 1.5) x 2

-- back to the integer: vjp of f64(x)*1.5 with adjoint 1 is i32(1.5) = 1
-- ==
-- entry: conv_back
-- input { 4 } output { 1 }
entry conv_back (x: i32) : i32 = vjp (\x -> f64.i32 x * 1.5) x 1

-- the index of a maximum: argmax has a zero derivative, the maximum one of 1
-- ==
-- entry: argmax_grad
-- input { [3i64, 9i64, 2i64] } output { [0i64, 1i64, 0i64] }
entry argmax_grad (xs: []i64) : []i64 =
  vjp (\xs -> reduce (\(a, i) (b, j) -> if a >= b then (a, i) else (b, j)) (i64.lowest, -1)
                     (zip xs (indices xs)) |> (.0)) xs 1

-- booleans: d(!x) = x·ẋ; && and || short-circuit, so they are the
-- branches `if x then y else false` and `if x then true else y`, whose
-- tangents are those of the branch taken: ẏ or zero.
-- ==
-- entry: bools
-- input { true false } output { true true false }
-- input { false true } output { false false true }
entry bools (x: bool) (y: bool) : (bool, bool, bool) =
  ( jvp (\x -> !x) x true
  , jvp (\(x, y) -> x && y) (x, y) (true, true)
  , jvp (\(x, y) -> x || y) (x, y) (true, true)
  )

-- comparisons have zero derivatives
-- ==
-- entry: compare
-- input { 3 } output { 0 }
entry compare (x: i32) : i32 = jvp (\x -> if x > 2 then 5 else 7) x 1

-- scatter with a duplicate index: only the write that is kept gets the adjoint
-- (the last one, as the interpreter resolves duplicates)
-- ==
-- entry: scatter_dup
-- input { [1.0, 2.0, 3.0, 4.0] } output { [0.0, 2.0, 3.0, 4.0] }
entry scatter_dup (xs: [4]f64) : [4]f64 =
  vjp (\xs -> scatter (replicate 3 0) [0, 1, 0, 2] (map2 (*) xs [1, 2, 3, 4])) xs [1, 1, 1]
