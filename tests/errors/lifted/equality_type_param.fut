-- A type parameter does not support equality.
-- ==
-- error: cannot apply "==": type 't' does not support equality

def f 't (x: t) = x == x

def main (x: i32) : bool = f x
