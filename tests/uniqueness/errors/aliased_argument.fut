-- An array consumed by a call cannot also be another argument.
-- ==
-- error: Cannot apply "f" to argument 1: Argument is consumed, but argument 2 aliases it

def f (xs: *[]i32) (ys: []i32) : i32 = let xs[0] = ys[0] in xs[0]

def main (xs: *[]i32) : i32 = f xs xs
