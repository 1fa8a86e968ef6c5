-- The two components of a pattern that share its size `[s]` get arrays of
-- lengths 3 and 4.
-- ==
-- error: cannot match the type of the pattern: size "s" would be both "3" and "4"

def main (x: i32) : i32 =
  let [s] (p: [s]i32, q: [s]i32) = (replicate 3 x, replicate 4 x)
  in p[0] + q[0] + i32.i64 s
