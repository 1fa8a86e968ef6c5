-- A polymorphic recursive function used at two types (one
-- specialisation each), and one whose element type is a tuple.
-- ==
-- entry: main
-- input { [1i32, 2i32, 3i32] [1.5f64, 2.5f64] }
-- output { 3i32 2.5f64 [3i32, 2i32, 1i32] [2.5f64, 1.5f64] }
-- entry: pairs
-- input { [1i32, 2i32, 3i32] [4i64, 5i64, 6i64] } output { 3i32 6i64 }

def last 't [n] (x: t) (xs: [n]t) : t =
  if n == 0 then x else last xs[0] (drop 1 xs)

def reverse_rec 't [n] (xs: [n]t) : []t =
  if n <= 1 then xs else reverse_rec (drop 1 xs) ++ [xs[0]]

entry main [n] [m] (xs: [n]i32) (ys: [m]f64) : (i32, f64, []i32, []f64) =
  (last 0 xs, last 0 ys, reverse_rec xs, reverse_rec ys)

entry pairs [n] (xs: [n]i32) (ys: [n]i64) : (i32, i64) =
  last (0, 0) (zip xs ys)
