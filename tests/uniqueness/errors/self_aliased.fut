-- Two unique components of a result cannot alias each other.
-- ==
-- error: aliased to some other component

def main (n: i64) : (*[]i64, *[]i64) =
  let a = iota n
  in (a, a)
