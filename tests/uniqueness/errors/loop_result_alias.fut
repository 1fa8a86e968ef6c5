-- The components of a loop's result alias each other when the body's
-- value does.
-- ==
-- error: aliased to some other component

def main (n: i64) : (*[]i64, *[]i64) =
  loop (a, b) = (iota 3, iota 3) for i < n do
    let arr = iota 3
    in (arr, arr)
