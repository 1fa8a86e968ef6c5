-- A function value aliases what it captures: it cannot be used after that
-- is consumed.
-- ==
-- error: Using "f", which aliases "xs", but this was consumed

def main (xs: *[]i32) (i: i32) : i32 =
  let f = \(j: i32) -> xs[j] + i
  let xs[0] = 2
  in f 1
