-- A loop that consumes its parameter consumes the initial value.
-- ==
-- error: Using "xs", but this was consumed at 7:23

def main (n: i64) : i64 =
  let xs = iota n
  let ys = loop acc = xs for i < n do acc with [i] = 0
  in xs[0] + ys[0]
