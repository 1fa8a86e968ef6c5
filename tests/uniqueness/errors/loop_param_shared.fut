-- A loop parameter declared with a type that is not unique cannot be
-- consumed in the body.
-- ==
-- error: Consuming variable "acc", which is not consumable: it is a parameter whose type is not unique

def main (xs: *[]i32) : []i32 =
  loop (acc: []i32) = xs for i < 3 do acc with [i] = 0
