-- The components of a result whose declared type is not unique are one
-- value as far as aliasing goes: consuming one consumes the other.
-- ==
-- error: Using "b", which aliases the result of applying "pair" \(at 9:16\), but this was consumed

def pair (n: i64) : ([]i64, []i64) = (iota n, iota n)

def main (n: i64) : ([]i64, []i64) =
  let (a, b) = pair n
  let a[0] = 1
  in (a, b)
