-- A type abbreviation declared lifted (`type^`) may stand for functions:
-- it cannot be an array element type.
-- ==
-- error: Cannot create array with elements of lifted type "arr"

type^ arr = [2]i32

type bad = [3]arr

def main (x: i32) : i32 = x
