-- The value written in place must not alias the array.
-- ==
-- error: Source array for in-place update might alias the update value

def main (a: *[][]i32) : [][]i32 = a with [1] = a[0]
