-- A type parameter declared lifted may stand for functions, which cannot
-- be array elements.
-- ==
-- error: Cannot create array with elements of lifted type 'f'

type many '^f = [3]f

def main (x: i32) : i32 = x
