-- Arrays of sizes unknown to the checker: `xs + ys` maps over both, and
-- different sizes are a run-time error (the entry point's: its arguments
-- share a size).
-- ==
-- input { [1, 2] [3, 4] } output { [4, 6] }
-- input { [1, 2] [3] } error: entry point arguments have invalid sizes: `ys` of shape \[1\]

def main (xs: []i32) (ys: []i32) = xs + ys
