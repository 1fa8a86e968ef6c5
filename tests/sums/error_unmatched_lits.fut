-- Literal patterns never cover an integer type; booleans are covered by
-- `true` and `false`.
-- ==
-- error: Unmatched cases.*\(_, true\)

def main (x: i32) (b: bool) : i32 =
  match (x, b)
  case (0, _) -> 0
  case (_, false) -> 1
