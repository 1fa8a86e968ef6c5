-- A name beginning with an underscore marks a binding that is never used.
-- ==
-- error: '_x' may not be used: names beginning with an underscore

def main (_x: i32) : i32 = _x
