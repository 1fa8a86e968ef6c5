-- A result inferred not unique (it returns its parameter twice) cannot
-- give two unique components.
-- ==
-- error: aliased to some other component

def dup (x: []i32) = (x, x)

def main (xs: []i32) : (*[]i32, *[]i32) = dup (copy xs)
