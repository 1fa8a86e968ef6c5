-- Consuming an array consumes what aliases it.
-- ==
-- error: Using "row", which aliases "xs", but this was consumed at 8:7.

def main (n: i64) : i64 =
  let xs = replicate n (iota n)
  let row = xs[0]
  let xs[1] = iota n
  in row[0]
