-- The result of calling a function parameter whose result type is not
-- unique may alias anything the function captures: it is not consumable.
-- ==
-- error: Consuming variable "f", which is not consumable

def g (f: i32 -> []i32) : i32 =
  let xs = f 1
  let xs[0] = 2
  in xs[0]

def main (x: i32) : i32 = g (\i -> [i, x])
