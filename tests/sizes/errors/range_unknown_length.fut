-- A range with a step other than one has an unknown length.
-- ==
-- error: Sizes "n" and "\?[0-9]+" do not match.*unknown length of range

def main (n: i64) : [n]i64 = 0..2..<2 * n
