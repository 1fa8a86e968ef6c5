-- An unsuffixed literal must lie in the range of its inferred type.
-- ==
-- error: literal -4 is out of bounds for its inferred type 'u8'

def main (x: u8) : u8 = x + -4
