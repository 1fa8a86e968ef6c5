-- Ranks are checked statically: a two-dimensional array cannot be used
-- where a one-dimensional one is expected.
-- ==
-- error: [Tt]ype|[Mm]ismatch|[Uu]nify|[Ee]xpected|[Rr]ank|[Dd]imension|[Cc]annot

def total (xs: []i32) : i32 = reduce (+) 0 xs

def main (m: [][]i32) : i32 = total m
