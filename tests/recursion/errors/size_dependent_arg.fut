-- A non-recursive function whose result size depends on the value of its
-- parameter cannot be passed as an argument either.
-- ==
-- error: Cannot apply "map" to "g"

def g (k: i64) : [k]i64 = iota k

entry main (n: i64) : [][]i64 = map g (iota n)
