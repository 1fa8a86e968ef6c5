-- Both branches of a conditional must have the same type.
-- ==
-- error: [Tt]ype|[Mm]ismatch|[Uu]nify|[Ee]xpected|[Bb]ranch|[Cc]annot

def main (b: bool) : i32 = if b then 1 else true
