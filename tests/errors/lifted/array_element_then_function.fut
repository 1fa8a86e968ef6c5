-- What has been an array element cannot later be a function.
-- ==
-- error: Cannot apply "x" as function: its type must be non-functional

def f x = ([x], x 2)

def main (y: i32) : i32 = y
