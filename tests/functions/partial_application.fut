-- Partial application of named functions, prelude functions and operators.
-- ==
-- entry: partial
-- input { [1i32, 2i32, 3i32] } output { [121i32, 122i32, 123i32] [91i32, 92i32, 93i32] }
-- entry: partial_prelude
-- input { 2i64 [5i32, 6i32] } output { [[5i32, 5i32], [6i32, 6i32]] [[10i32, 11i32], [11i32, 12i32]] }
-- entry: partial_three
-- input { 1.0f64 2.0f64 } output { [1.0f64, 1.25f64, 2.0f64] }

def add3 (a: i32) (b: i32) (c: i32) : i32 = a * 100 + b * 10 + c

def lerp (lo: f64) (hi: f64) (t: f64) : f64 = lo + (hi - lo) * t

entry partial (xs: []i32) : ([]i32, []i32) =
  let f = add3 1
  let g = f 2
  in (map g xs, map (add3 0 9) xs)

entry partial_prelude (n: i64) (xs: []i32) : ([][]i32, [][]i32) =
  (map (replicate n) xs, map (\x -> map (+ x) xs) xs)

entry partial_three (lo: f64) (hi: f64) : []f64 = map (lerp lo hi) [0.0, 0.25, 1.0]
