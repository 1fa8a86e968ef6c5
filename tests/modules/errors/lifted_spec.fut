-- A module type that specifies a lifted type parameter (`'^a`) allows
-- more than a definition whose type parameter is not lifted.
-- ==
-- error: Module type specifies the lifted type parameter 'a'

module m = {def f 'a (x: a) = ([x])[0]}: {val f '^a : a -> a}

def main = m.f (\(x: i32) -> x) 0i32
