-- An abstract type's size parameter must be the size of an array that its
-- values hold: here it is only part of a size expression.
-- ==
-- error: Size parameter "\[n\]" of the abstract type 'm.sum' is not used constructively

module m : { type sum [n] [m] } = {
  type sum [n] [m] = [n + m]bool
}

def main (x: i32) = x
