-- map and map2 … map5 over arrays of different element types.
-- ==
-- entry: m1
-- input { [1i32, -2i32, 3i32] } output { [3i32, -3i32, 7i32] }
-- entry: m2
-- input { [1i32, 2i32, 3i32] [0.5f64, -1.0f64, 2.0f64] } output { [0.5f64, -2.0f64, 6.0f64] }
-- input { empty([0]i32) empty([0]f64) } output { empty([0]f64) }
-- entry: m3
-- input { [1i32, 2i32, 3i32] [10i32, 20i32, 30i32] [true, false, true] } output { [1i32, 20i32, 3i32] }
-- entry: m4
-- input { [1.0f32, 2.0f32] [3.0f32, 4.0f32] [5.0f32, 6.0f32] [7.0f32, 8.0f32] } output { [38.0f32, 56.0f32] }
-- entry: m5
-- input { [1i64, 2i64] [3i64, 4i64] [5i64, 6i64] [7i64, 8i64] [9i64, 10i64] } output { [24i64, 36i64] }

entry m1 (xs: []i32) : []i32 = map (\x -> x * 2 + 1) xs

entry m2 [n] (xs: [n]i32) (ys: [n]f64) : []f64 = map2 (\x y -> f64.i32 x * y) xs ys

entry m3 [n] (xs: [n]i32) (ys: [n]i32) (zs: [n]bool) : []i32 =
  map3 (\x y z -> if z then x else y) xs ys zs

entry m4 [n] (a: [n]f32) (b: [n]f32) (c: [n]f32) (d: [n]f32) : []f32 =
  map4 (\w x y z -> w * x + y * z) a b c d

entry m5 [n] (a: [n]i64) (b: [n]i64) (c: [n]i64) (d: [n]i64) (e: [n]i64) : []i64 =
  map5 (\p q r s t -> p - q + r * s - t) a b c d e
