-- The recursive call that changes the function is inside a lambda.
-- ==
-- error: passed unchanged

def sumrec (g: i64 -> i64) (n: i64) : i64 =
  if n <= 0 then 0 else i64.sum (map (\i -> sumrec (\x -> g (x + i)) (n - 1)) (iota n))

entry main (n: i64) : i64 = sumrec (\x -> x) n
