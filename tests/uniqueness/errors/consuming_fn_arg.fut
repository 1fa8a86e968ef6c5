-- A consuming function cannot be passed for a parameter whose type does
-- not say it may consume.
-- ==
-- error: incompatible regarding consuming their arguments

def twice 'a 'b (f: a -> b) (x: a) : (b, b) = (f x, f x)

def first (xs: *[]i32) : i32 = xs[0]

def main (xs: *[]i32) : (i32, i32) = twice first xs
