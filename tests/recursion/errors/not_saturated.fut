-- A recursive function with a function parameter must be applied to all
-- its arguments inside its own definition.
-- ==
-- error: not fully saturated

def repeat (n: i64) (f: i32 -> i32) (x: i32) : i32 =
  if n <= 0 then x else let g = repeat (n - 1) f in g (f x)

entry main (n: i64) (x: i32) : i32 = repeat n (\y -> y + 1) x
