-- An index of unknown integer type defaults to i32 like other integers,
-- so a function that indexes takes an i32 where nothing else decides it.
-- ==
-- input { [10i64, 20i64, 30i64] 2 } output { 30i64 }
-- input { [10i64, 20i64, 30i64] 3 }
-- error: Index \[3\] out of bounds for array of shape \[3\]

def at xs j = xs[j]

def main (xs: []i64) (j: i32) : i64 = at xs j
