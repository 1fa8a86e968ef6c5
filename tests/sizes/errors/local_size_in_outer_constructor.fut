-- A size bound by a local function's parameter may not become part of
-- the type of a variable bound outside it (here through a constructor's
-- payload, matched inside the function).
-- ==
-- error: The type of "x", bound outside local function "f", would have the size "n", which is bound inside it \[scope-violation\]

def g x =
  let f (n: i64) (xs: [n]i32) =
    zip xs (match x
            case #ys (ys: [n]i32) -> ys
            case _ -> xs)
  let _ = (x : (#ys ([]i32) | #null))
  in f

def main (a: i32) = a
