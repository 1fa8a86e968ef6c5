-- `!` is a prefix operator.
-- ==
-- error: '!' is a prefix operator and cannot be used as infix

def x ! y = x + y

def main (x: i32) : i32 = x
