-- A lambda's parameter is consumable only when declared unique.
-- ==
-- error: Consuming variable "xs", which is not consumable: it is a parameter whose type is not unique

def consume (xs: *[]i32) : i32 = xs[0]

def main (xss: [][]i32) : []i32 = map (\xs -> consume xs) xss
