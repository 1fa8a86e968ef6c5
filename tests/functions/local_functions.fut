-- Functions defined locally with let, capturing variables of the
-- enclosing scope, and nested local functions.
-- ==
-- input { 3i32 [1i32, 2i32, 3i32] } output { [3i32, 6i32, 9i32] 15i32 0i32 }
-- input { -2i32 [10i32] } output { [-20i32] -10i32 0i32 }

def main (k: i32) (xs: []i32) : ([]i32, i32, i32) =
  let scale (x: i32) = x * k
  let shift x = x + 1
  let both x =
    let inner y = scale (shift y)
    in inner x - k
  in (map both xs, scale 5, both 0)
