-- An accumulator cannot be an element of an array.
-- ==
-- error: arrays of accumulators

def f (c: *intrinsics.acc ([]i32)) = let cs = [c] in cs[0]

def main (xs: *[]i32) = intrinsics.scatter_stream xs (\c (_: i64) -> f c) (iota 3)
