-- A function whose parameter's size goes out of scope could never be
-- applied.
-- ==
-- error: Unknown size "n" in parameter

def f (b: bool) =
  let n = if b then 10 else 20
  in \(_: [n]bool) -> true

def main (b: bool) = b
