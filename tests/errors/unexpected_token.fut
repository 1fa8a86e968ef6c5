-- A constructor of a sum type starts with '#'.
-- ==
-- error: Unexpected token: 'bar', expected constructor

type foo = #foo | bar

def main : i32 = 0
