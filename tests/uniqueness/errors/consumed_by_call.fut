-- Passing an array for a unique parameter consumes it.
-- ==
-- error: Using "xs", but this was consumed at 8:17

def zero (xs: *[]i32) : *[]i32 = xs with [0] = 0

def main (xs: *[]i32) : i32 =
  let ys = zero xs
  in xs[0] + ys[0]
