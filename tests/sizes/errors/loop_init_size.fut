-- The initial value of a loop parameter declared `[n]` must have `n`
-- elements.
-- ==
-- error: Initial loop values do not have expected type\. Expected: \[n\]i32, actual: \[m\]i32\. Sizes "n" and "m" do not match\.

def main [m] (xs: [m]i32) (n: i64) =
  loop (ys: [n]i32) = xs for _i < 3 do map (+ 1) ys
