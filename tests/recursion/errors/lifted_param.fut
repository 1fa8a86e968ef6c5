-- A parameter whose type is a lifted type parameter may be a function,
-- so it too must be passed unchanged.
-- ==
-- error: passed unchanged

def count '^a (x: a) (f: a -> a) (n: i64) : i64 =
  if n <= 0 then 0 else 1 + count (f x) f (n - 1)

entry main (n: i64) : i64 = count 1i32 (\y -> y + 1) n
