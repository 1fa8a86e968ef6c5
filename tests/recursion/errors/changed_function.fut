-- A function argument of a recursive call must be the function's own
-- parameter, passed unchanged.
-- ==
-- error: Argument 1 .* 'go' must be the higher-order parameter 'g' passed unchanged

def go (g: i32 -> i32) (n: i64) : i32 =
  if n <= 0 then g 0 else go (\x -> g x + 1) (n - 1)

entry main (n: i64) : i32 = go (\x -> x) n
