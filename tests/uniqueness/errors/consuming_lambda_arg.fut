-- A lambda that consumes its parameter cannot be passed to a function
-- (here `map`) whose parameter is a function that does not.
-- ==
-- error: consumes its argument where the function expected here does not

def main (rows: *[][]i64) : [][]i64 =
  map (\(r: *[]i64) -> r with [0] = 1) rows
