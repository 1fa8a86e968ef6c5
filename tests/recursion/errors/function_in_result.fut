-- A result that contains a function (here in a tuple) is not first-order
-- either.
-- ==
-- error: not first-order

def pair (n: i64) : (i64, i64 -> i64) =
  (n, \x -> if n <= 0 then x else (pair (n - 1)).1 x)

entry main (n: i64) (x: i64) : i64 = (pair n).1 x
