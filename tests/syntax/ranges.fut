-- Range expressions: exclusive, inclusive, strided, and downwards.
-- ==
-- entry: upto
-- input { 5i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 0i64 } output { empty([0]i64) }
-- entry: incl
-- input { 2i64 6i64 } output { [2i64, 3i64, 4i64, 5i64, 6i64] }
-- input { 3i64 3i64 } output { [3i64] }
-- entry: stepped
-- input { 1i64 3i64 8i64 } output { [1i64, 3i64, 5i64, 7i64] }
-- input { 0i64 5i64 20i64 } output { [0i64, 5i64, 10i64, 15i64, 20i64] }
-- entry: stepped_excl
-- input { 1i64 3i64 7i64 } output { [1i64, 3i64, 5i64] }
-- input { 0i64 4i64 12i64 } output { [0i64, 4i64, 8i64] }
-- entry: down
-- input { 5i64 1i64 } output { [5i64, 4i64, 3i64, 2i64] }
-- entry: down_step
-- input { 10i64 8i64 3i64 } output { [10i64, 8i64, 6i64, 4i64] }
-- entry: small
-- input { 4i32 } output { [1i32, 2i32, 3i32, 4i32] }

entry upto (n: i64) : []i64 = 0..<n

entry incl (a: i64) (b: i64) : []i64 = a...b

entry stepped (a: i64) (b: i64) (c: i64) : []i64 = a..b...c

entry stepped_excl (a: i64) (b: i64) (c: i64) : []i64 = a..b..<c

entry down (a: i64) (b: i64) : []i64 = a..>b

entry down_step (a: i64) (b: i64) (c: i64) : []i64 = a..b..>c

entry small (n: i32) : []i32 = 1...n
