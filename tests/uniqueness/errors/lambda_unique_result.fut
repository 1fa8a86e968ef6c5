-- A lambda declared to return a unique array cannot return its
-- parameter that is not unique.
-- ==
-- error: Unique-typed return value of "lambda" is aliased to "ys"

def main (xs: []i32) : []i32 = (\(ys: []i32) : *[]i32 -> ys) xs
