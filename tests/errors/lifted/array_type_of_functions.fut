-- An array type may not have function elements.
-- ==
-- error: Cannot create array with elements of lifted type 'i32 -> i32'

def f (arr: [](i32 -> i32)) = arr

def main (x: i32) : i32 = x
