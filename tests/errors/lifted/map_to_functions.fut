-- `map`'s result type parameter is not lifted: mapping a function that
-- returns functions would make an array of functions.
-- ==
-- error: Cannot apply "map" to .* \(invalid type\): .*is functional

def main (xs: []i32) =
  map (\(x: i32) -> \(y: i32) -> x + y) xs
