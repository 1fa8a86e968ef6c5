-- A variable cannot be used after it was consumed.
-- ==
-- error: Using "a", but this was consumed at 7:12

def main (n: i64) : i64 =
  let a = iota n
  let a2 = a with [0] = 1
  in a[0] + a2[0]
