-- So does a partial application.
-- ==
-- error: Using "f", which aliases "xs", but this was consumed

def first (xs: []i32) (_: i32) : i32 = xs[0]

def main (xs: *[]i32) : i32 =
  let f = first xs
  let xs[0] = 2
  in f 1
