-- A loop parameter declared unique consumes its initial value even if
-- the body does not.
-- ==
-- error: Consuming variable "xs", which is not consumable: it is a parameter whose type is not unique

def main (xs: []i32) : []i32 = loop (acc: *[]i32) = xs for i < 3 do acc
