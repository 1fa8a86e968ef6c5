-- A name bound inside a parameter's pattern is not a size the result
-- type can use.
-- ==
-- error: "x" is bound inside a parameter's pattern

def f (x: i64, _: bool) : [x]i32 = replicate x 0

def main (x: i64) = f (x, true)
