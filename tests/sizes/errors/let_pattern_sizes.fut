-- A size bound by a `let` pattern names one size: two dimensions of the
-- value that are known to differ cannot both be it.
-- ==
-- error: size "k" would be both "a" and "b". Sizes "a" and "b" do not match

def main (a: i64) (b: i64) : i64 =
  let [k] (m: [k][k]i32) = replicate a (replicate b 0i32)
  in k + length m
