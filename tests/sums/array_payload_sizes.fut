-- An array of sum values whose payloads are arrays: the blank payload
-- of `#none` has the size the other elements give (3), also when the
-- array is passed for a parameter that does not say the size.
-- ==
-- input { 4i32 } output { [1, 7] [1, 4] }

type maybe 'a = #none | #some a

def total (x: maybe ([]i32)) : i32 =
  match x
  case #none -> 1
  case #some xs -> foldl (+) 0 xs

def last (x: maybe ([]i32)) : i32 =
  match x
  case #none -> 1
  case #some xs -> xs[length xs - 1]

def main (k: i32) =
  (map total [#none, #some [1, 2, k]], map last [#none, #some [1, 2, k]])
