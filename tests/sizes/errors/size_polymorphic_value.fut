-- A constant with a size parameter gets its size from where it is used,
-- so its type may not have other, unknown, sizes.
-- ==
-- error: size-polymorphic value binding "pairs" cannot have a type with unknown sizes

def pairs [k] = (replicate k 1i32, filter (> 2) (iota k))

def main (x: i32) : i32 = x
