-- A function whose numeric types were ambiguous has them defaulted (to
-- i32 here); a later use at f64 is explained.
-- ==
-- error: Defaulting: the type of "example" had ambiguous numeric types

def example a b = a + b

def main (a: f64) = example a 1.0
