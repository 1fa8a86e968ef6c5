-- Matching constructors against an array of a sum type.
-- ==
-- error: Cannot unify type with constructors

def main (o: [](#found i32 | #not_found)) : i32 =
  match o
  case #found x -> x
  case #not_found -> -1
