-- Two unique loop parameters cannot be given the same value.
-- ==
-- error: Return value for loop parameter "ys" aliases other consumed loop parameter.*loop-parameter-aliases-other

def main (n: i64) : ([]i32, []i32) =
  loop (xs: *[]i32, ys: *[]i32) = (replicate n 0, replicate n 0) for i < 3 do
    (xs, xs)
