-- A function whose result size depends on the value of its parameter
-- cannot be passed to `map`, recursive or not.
-- ==
-- error: Cannot apply "map" to "f".*parameter "n"

def f (n: i64) : [n]i64 =
  if n <= 0 then [] :> [n]i64
  else let rows = map f [n - 1]
       in sized n ([n - 1] ++ rows[0])

entry main (n: i64) : []i64 = f n
