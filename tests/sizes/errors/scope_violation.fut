-- The unknown size of a parameter cannot become a size bound inside the
-- function (here by `let`), which is not in scope where the parameter is.
-- ==
-- error: Cannot apply "zip" to "xs" \(invalid type\)\..*"n", which is bound at .*\(scope-violation\)

def main (xs: []i32) =
  let n = 2 + 3
  in zip (iota n) xs
