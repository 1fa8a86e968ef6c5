-- A size-lifted type parameter ('~b) cannot be an array element type:
-- its values may have different sizes.
-- ==
-- error: Cannot create array with elements of size-lifted type 'b'

def apply 'a '~b (f: i64 -> a -> b) (x: a) = [f 0 x, f 1 x]

def main (x: i32) = apply replicate x
