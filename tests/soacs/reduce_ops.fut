-- reduce with the common operators, including on empty arrays (which
-- give the neutral element), and with an array-valued operator.
-- ==
-- entry: sum_i32
-- input { [1i32, 2i32, 3i32, 4i32] } output { 10i32 }
-- input { [2147483647i32, 1i32] } output { -2147483648i32 }
-- input { empty([0]i32) } output { 0i32 }
-- entry: prod_i64
-- input { [1i64, -2i64, 3i64, 4i64, 5i64] } output { -120i64 }
-- input { empty([0]i64) } output { 1i64 }
-- entry: min_max_f64
-- input { [3.5f64, -1.0f64, 7.25f64, 0.0f64] } output { -1.0f64 7.25f64 }
-- input { empty([0]f64) } output { f64.inf -f64.inf }
-- entry: sum_f32
-- input { [0.5f32, 0.25f32, 1024.0f32, -3.125f32] } output { 1021.625f32 }
-- entry: and_or
-- input { [true, true, false] } output { false true }
-- input { [true] } output { true true }
-- input { empty([0]bool) } output { true false }
-- entry: colsums
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [5i32, 7i32, 9i32] }

entry sum_i32 (xs: []i32) : i32 = reduce (+) 0 xs

entry prod_i64 (xs: []i64) : i64 = reduce (*) 1 xs

entry min_max_f64 (xs: []f64) : (f64, f64) =
  (reduce f64.min f64.inf xs, reduce f64.max (-f64.inf) xs)

entry sum_f32 (xs: []f32) : f32 = reduce (+) 0.0 xs

entry and_or (xs: []bool) : (bool, bool) = (reduce (&&) true xs, reduce (||) false xs)

entry colsums [n] [m] (xss: [n][m]i32) : [m]i32 = reduce (map2 (+)) (replicate m 0) xss
