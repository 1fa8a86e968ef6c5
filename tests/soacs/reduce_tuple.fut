-- reduce with tuple operators: argmax (ties go to the lowest index) and
-- a mean computed as a (sum, count) pair.
-- ==
-- entry: argmax
-- input { [1.0f32, 3.0f32, 3.0f32, 2.0f32] } output { 3.0f32 1i64 }
-- input { [-5.0f32] } output { -5.0f32 0i64 }
-- input { [0.5f32, -1.0f32, 9.0f32, 8.5f32, 9.0f32] } output { 9.0f32 2i64 }
-- entry: mean
-- input { [1.0f64, 2.0f64, 4.5f64, -0.5f64] } output { 1.75f64 }
-- entry: min_max
-- input { [3i32, -7i32, 12i32, 0i32] } output { -7i32 12i32 }

def argmax_op (v1: f32, i1: i64) (v2: f32, i2: i64) : (f32, i64) =
  if v1 > v2 then (v1, i1)
  else if v2 > v1 then (v2, i2)
  else (v1, i64.min i1 i2)

entry argmax [n] (xs: [n]f32) : (f32, i64) =
  reduce argmax_op (-f32.inf, -1) (zip xs (iota n))

entry mean (xs: []f64) : f64 =
  let (s, c) = reduce (\(a, n) (b, m) -> (a + b, n + m)) (0.0, 0i64) (map (\x -> (x, 1i64)) xs)
  in s / f64.i64 c

entry min_max (xs: []i32) : (i32, i32) =
  reduce (\(a, b) (c, d) -> (i32.min a c, i32.max b d))
         (i32.highest, i32.lowest)
         (zip xs xs)
