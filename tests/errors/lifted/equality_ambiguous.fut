-- A type compared for equality cannot be generalised into a type parameter.
-- ==
-- error: Type 't1' is ambiguous: its values are compared for equality

def add x y = x == y

def main (y: i32) : i32 = y
