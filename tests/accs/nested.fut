-- Accumulators inside a map, in tuples, and passed through a function
-- that returns one of two copies (each row gets its own accumulator).
-- ==
-- input { 3i64 4i64 }
-- output { [[0i32, 0i32, 1i32, 1i32], [1i32, 0i32, 1i32, 1i32], [2i32, 0i32, 1i32, 1i32]] }

import "lib/acc"

def first 'a 'b (x: a, _: b) = x

def f (c: *acc ([]i32)) (j: i64) =
  let c = first (c, c)
  in put c (j + 2) 1

entry main (n: i64) (m: i64) : [n][m]i32 =
  tabulate n (\i ->
    let row = replicate m 0 with [0] = i32.i64 i
    in write_all row f (iota 2))
