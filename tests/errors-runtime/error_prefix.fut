-- As in Futhark's test runner, an expected run-time error may match the
-- `Error: ` that starts Futhark's own report of it.
-- ==
-- input { [1, 2, 3] 5i64 } error: ^Error: Index \[5\] out of bounds for array of shape \[3\]

def main (xs: []i32) (i: i64) = xs[i]
