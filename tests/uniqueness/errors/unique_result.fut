-- A unique result cannot alias a parameter that is not unique.
-- ==
-- error: Unique-typed return value of "main" is aliased to "xs"

def main (xs: []i32) : *[]i32 = xs
