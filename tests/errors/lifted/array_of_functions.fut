-- An array may not contain functions.
-- ==
-- error: Cannot create array with elements of lifted type 'i32 -> i32': functional

def f (x: i32) : i32 = x + x
def g (x: i32) : i32 = x + 1

def main (x: i32) : i32 = let fs = [f, g] in x
