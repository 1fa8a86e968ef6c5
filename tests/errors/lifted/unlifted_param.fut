-- A type parameter without '^' cannot be instantiated with a function.
-- ==
-- error: Cannot apply "app" to "id" \(invalid type\): .*functional

def app (f: (i32 -> i32) -> (i32 -> i32)) : i32 = f (\(x: i32) -> x + x) 42

def id 'a (x: a) : a = x

def main : i32 = app id
