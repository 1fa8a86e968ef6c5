-- A sum type whose constructors only some patterns name is ambiguous.
-- ==
-- error: Type is ambiguous

def main (x: i32) : i32 =
  match #left x
  case #left y -> y
  case #right y -> y + 1
