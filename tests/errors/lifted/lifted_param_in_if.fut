-- Not even a lifted type parameter may be the result of a conditional.
-- ==
-- error: the result of an 'if' may not be of function type, but this has type 'a'

def cond '^a (b: bool) (x: a) (y: a) : a = if b then x else y

def main (b: bool) (x: i32) : i32 = cond b x 0
