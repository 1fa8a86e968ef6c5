-- A type known to have a field cannot be a number.
-- ==
-- error: cannot unify 'i32' with type that must be a record \(with field 'x'\)

def sameconst '^a (_: a) (y: a) = y

def main (x: i64) : bool =
  let elems = sameconst (\s -> s.x < 0) (\s -> s > 0)
  in elems {x}
