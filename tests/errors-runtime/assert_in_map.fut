-- An assertion inside a `map` whose results are its rows unchanged: the
-- map may not be replaced by its input, since the assertions must hold
-- first.

-- ==
-- entry: identity
-- input { 3i64 } error: Assertion is false
-- input { -1i64 } output { empty([0]i64) }
entry identity (n: i64) = map (\k -> assert (k > 0) k) (iota (n + 1))

-- ==
-- entry: invariant
-- input { [1i32, 0i32] 7i32 } error: Assertion is false
-- input { [1i32, 2i32] 7i32 } output { [7i32, 7i32] }
entry invariant (xs: []i32) (y: i32) = map (\x -> assert (x != 0) y) xs
