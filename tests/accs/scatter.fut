-- scatter_stream: each element writes two cells through the accumulator;
-- out-of-range writes are ignored and later writes win.
-- ==
-- entry: write
-- input { [0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32] 3i64 }
-- output { [10i32, 11i32, 20i32, 21i32, 30i32, 31i32, 0i32] }
-- input { [7i32, 7i32, 7i32] 0i64 }
-- output { [7i32, 7i32, 7i32] }

import "lib/acc"

def two (c: *acc ([]i32)) (i: i64) =
  let v = i32.i64 (i + 1) * 10
  let c = put c (2 * i) v
  let c = put c (2 * i + 1) (v + 1)
  -- Out of range: ignored.
  in put c (-1) 99

entry write [n] (xs: *[n]i32) (k: i64) : [n]i32 = write_all xs two (iota k)
