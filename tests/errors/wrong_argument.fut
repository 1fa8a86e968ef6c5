-- Passing an f64 where a function expects an i32 is a type error.
-- ==
-- error: [Tt]ype|[Mm]ismatch|[Uu]nify|[Ee]xpected|[Cc]annot

def inc (x: i32) : i32 = x + 1

def main (y: f64) : i32 = inc y
