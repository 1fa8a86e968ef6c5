-- A plain `type` may not hide a `type~` inside it (here as the argument
-- of another abbreviation).
-- ==
-- error: Non-size-lifted type abbreviations may not contain size-lifted types

type~ bits = []bool
type pair 'x = (x, i32)
type flagged = pair bits

def main (x: i32) : i32 = x
