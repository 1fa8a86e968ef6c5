-- A type abbreviation must use its size parameters.
-- ==
-- error: Size parameter "\[n\]" unused

type matrix [n] = i32

def main (x: matrix [3]) = x
