-- A parameter must be declared unique to be consumed.
-- ==
-- error: Consuming variable "xs", which is not consumable: it is a parameter whose type is not unique

def main (xs: []i32) : []i32 = xs with [0] = 1
