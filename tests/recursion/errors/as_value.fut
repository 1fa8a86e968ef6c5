-- A recursive function with a function parameter cannot be used as a
-- value inside its own definition.
-- ==
-- error: higher-order parameter

def repeat (n: i64) (f: i32 -> i32) (x: i32) : i32 =
  if n <= 0 then x else let r = repeat in r (n - 1) f (f x)

entry main (n: i64) (x: i32) : i32 = repeat n (\y -> y + 1) x
