-- `map (\x -> x * c) a` with `a` three-dimensional: the two maps `x * c`
-- still needs may go inside the lambda or around the explicit `map`.
-- ==
-- error: ambiguous implicit maps in 'main'

def main (a: [][][]i32) (c: i32) = map (\x -> x * c) a
