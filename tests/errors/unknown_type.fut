-- A type abbreviation may not refer to itself.
-- ==
-- error: Unknown type "t".

type t = t

def main (x: i32) : i32 = x
