-- A size named by a variable that goes out of scope stands for the
-- variable's definition when that is a size expression (`m = n + 1`), so
-- the result has the declared size `[n + 1]`; sizes that branches
-- disagree on are unknown, not an error.
-- ==
-- entry: out_of_scope
-- input { 2i64 } output { [0i64, 1i64, 2i64] }
-- entry: branches
-- input { true 2i64 3i64 } output { [0i64, 1i64] }
-- input { false 2i64 3i64 } output { [0i64, 1i64, 2i64] }

entry out_of_scope (n: i64) : [n + 1]i64 =
  let m = n + 1
  in iota m

entry branches (b: bool) (n: i64) (m: i64) : []i64 =
  if b then iota n else iota m

-- ==
-- entry: ranges
-- input { 3i64 } output { [0i64, 1i64, 2i64] [0i64, 1i64, 2i64, 3i64] }

entry ranges (n: i64) : ([n]i64, [n + 1]i64) = (0..<n, 0...n)
