-- A size bound by `let [n]` must be the size of an array the pattern
-- binds.
-- ==
-- error: Size \[n\] unused in pattern\.

def main (xs: []i32) =
  let [n] ys = filter (> 0) xs
  in n
