-- A projection from a value of unknown type is ambiguous.
-- ==
-- error: type is ambiguous: cannot infer the record or tuple type that has field 'a'

def f = (.a)

def main (x: i32) : i32 = x
