-- A tuple pattern must have as many components as the tuple it matches.
-- ==
-- error: [Tt]ype|[Mm]atch|[Tt]uple|[Cc]omponent|[Ee]xpected|[Aa]rity

def main (x: i32) : i32 =
  let (a, b) = (x, x + 1, x + 2)
  in a + b
