-- A match that misses a value is rejected, naming an unmatched value.
-- ==
-- error: Unmatched cases.*#some \(#b _\)

type inner = #a i32 | #b bool
type t = #none | #some inner

def main (x: t) : i32 =
  match x
  case #none -> 0
  case #some (#a k) -> k
