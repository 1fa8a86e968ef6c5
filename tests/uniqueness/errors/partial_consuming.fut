-- A partial application that consumes makes a function value that could
-- be called many times.
-- ==
-- error: contains-consumption

def update (xs: *[]i32) (i: i32) (y: i32) : []i32 = xs with [i] = y

def main (xs: *[]i32) : []i32 =
  let f = update xs
  in f 0 1
