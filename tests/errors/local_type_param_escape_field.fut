-- The same through a field of a variable whose type is not known yet:
-- `x.0` made the first component of `x`'s type the local function's
-- type parameter.
-- ==
-- error: "b".*scope-violation

def f x =
  let g 'b (y: b) = if true then y else x.0
  let (_, _: i32) = x
  in g

def main (a: i32) = a
