-- A value passed for a unique parameter must not alias itself.
-- ==
-- error: self-aliased

def f [n] (x: *([n]i32, [n]i32)) : ([n]i32, [n]i32) = x with 0[1] = 2

def main [n] (x: *[n]i32) : ([n]i32, [n]i32) = f (x, x)
