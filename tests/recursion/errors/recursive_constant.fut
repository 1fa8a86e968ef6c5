-- Only functions may be recursive: in a constant, its own name refers to
-- an earlier definition, and here there is none.
-- ==
-- error: Unknown name "x"

def x : i64 = x + 1

entry main (y: i64) : i64 = x + y
