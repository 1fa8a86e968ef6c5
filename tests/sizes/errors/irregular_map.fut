-- A map whose function gives each element an array of its own size
-- would build an irregular array.
-- ==
-- error: Cannot apply "map".*"n", which is bound at .*\(scope-violation\)

def main (xs: []i64) = map (\n -> iota n) xs
