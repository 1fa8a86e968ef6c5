-- hist_stream with scalar, tuple and row elements, and an accumulator
-- threaded through a sequential loop inside the function.
-- ==
-- entry: sums
-- input { [1i32, 2i32, 3i32, 4i32] [0i64, 1i64, 1i64, 3i64, 9i64] }
-- output { [2i32, 10i32, 3i32, 12i32] }
-- entry: argmax
-- input { [3f32, 9f32, 2f32, 9f32, 1f32] }
-- output { [3f32, 9f32] [0i64, 1i64] }
-- entry: rows
-- input { [[1i32, 2i32], [3i32, 4i32]] 3i64 }
-- output { [[3i32, 4i32], [4i32, 5i32]] }

import "lib/acc"

-- Each index i adds i+1 at cell i (ignored when out of range), and once
-- more in a loop when i > 0.
def add_at (c: *acc ([]i32)) (i: i64) =
  let c = put c i (i32.i64 i + 1)
  in loop c for _j < i64.min i 1 do put c i (i32.i64 i + 1)

entry sums [n] (xs: *[n]i32) (is: []i64) : [n]i32 = combine_all xs (+) 0 add_at is

-- Index of the largest value per parity class (ties: smaller index).
def best (a: f32, i: i64) (b: f32, j: i64) =
  if a > b || (a == b && i < j) then (a, i) else (b, j)

entry argmax [n] (xs: [n]f32) : ([2]f32, [2]i64) =
  let f (c: *acc ([](f32, i64))) (i: i64, x: f32) = put c (i % 2) (x, i)
  in unzip (combine_all (replicate 2 (-f32.inf, -1)) best (-f32.inf, -1) f (zip (iota n) xs))

-- Rows as elements: element i < k adds i to every cell of row i % 2.
entry rows [m] (xss: *[2][m]i32) (k: i64) : [2][m]i32 =
  let f (c: *acc ([][m]i32)) (i: i64) = put c (i % 2) (replicate m (i32.i64 i))
  in combine_all xss (map2 (+)) (replicate m 0) f (iota k)
