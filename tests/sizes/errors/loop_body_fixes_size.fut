-- The body ties the second parameter's size to the first's, so it may not
-- change; the body's filter does change it.
-- ==
-- error: Loop body does not have expected type.*unknown size of the result of "filter"

def main [n] (xs: [n]i32) (ys: [n]i32) =
  loop (xs, ys) for _i < 3 do
    let zs = filter (> 0) (map2 (+) xs ys)
    in (xs, zs)
