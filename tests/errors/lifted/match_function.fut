-- A `match` may not return a function.
-- ==
-- error: the result of a 'match' may not be of function type

def f (x: i32) : i32 = x + x

def main (b: bool) (n: i32) : i32 = (match b case _ -> f) n
