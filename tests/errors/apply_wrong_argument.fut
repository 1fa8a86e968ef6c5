-- An argument of the wrong type names the function and the argument.
-- ==
-- error: Cannot apply "reverse" to "x"

def reverse [n] [m] 't (a: [m][n]t) = a[::-1]

def main (x: []i32) = reverse x
