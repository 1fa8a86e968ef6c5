-- One function may not bind a name twice, whether as two parameters or
-- as a size parameter and a parameter.
-- ==
-- error: 'x' is also bound

def main (x: i32) (x: i32) : i32 = x
