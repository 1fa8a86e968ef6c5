-- The condition of an if must be a bool, not an integer.
-- ==
-- error: [Tt]ype|[Mm]ismatch|[Uu]nify|[Ee]xpected|bool|[Cc]annot

def main (x: i32) : i32 = if x then 1 else 2
