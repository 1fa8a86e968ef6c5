-- A lambda's parameters must be distinct.
-- ==
-- error: 'x' is also bound

def main (y: i32) : i32 = (\(x: i32) (x: i32) -> x) y y
