-- The size of an array parameter cannot be a later parameter.
-- ==
-- error: "n", which is bound at .*\(scope-violation\)

def main (xs: []i32) (n: i64) = zip xs (iota n)
