-- take, drop and split.
-- ==
-- entry: td
-- input { 2i64 [1i32, 2i32, 3i32, 4i32, 5i32] } output { [1i32, 2i32] [3i32, 4i32, 5i32] }
-- input { 0i64 [1i32, 2i32] } output { empty([0]i32) [1i32, 2i32] }
-- input { 2i64 [1i32, 2i32] } output { [1i32, 2i32] empty([0]i32) }
-- entry: sp
-- input { 1i64 [1i32, 2i32, 3i32, 4i32] } output { [1i32] [2i32, 3i32, 4i32] }
-- input { 4i64 [1i32, 2i32, 3i32, 4i32] } output { [1i32, 2i32, 3i32, 4i32] empty([0]i32) }
-- entry: head_tail
-- input { [7i32, 8i32, 9i32] } output { 7i32 [8i32, 9i32] 9i32 [7i32, 8i32] }

entry td (n: i64) (xs: []i32) : ([]i32, []i32) = (take n xs, drop n xs)

entry sp [n] (k: i64) (xs: [n]i32) : ([]i32, []i32) = split (xs :> [k + (n - k)]i32)

entry head_tail (xs: []i32) : (i32, []i32, i32, []i32) = (head xs, tail xs, last xs, init xs)
