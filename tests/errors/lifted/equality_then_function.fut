-- What has been compared with `==` cannot later be a function.
-- ==
-- error: its values are compared for equality, so it cannot be a function type

def f x = (x == x, x 2)

def main (y: i32) : i32 = y
