-- A local function without type parameters is not generalised: its
-- uses fix its type.
-- ==
-- error: Cannot apply "apply"

def main x =
  let apply f x = f x
  in apply (apply (i32.+) x) x
