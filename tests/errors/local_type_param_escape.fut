-- The explicit type parameter of a local function cannot become the type
-- of a variable bound outside that function.
-- ==
-- error: The type of "outer", bound outside local function "pick", would be its type parameter "elem".*scope-violation

def choose outer =
  let pick 'elem (inner: elem) = if false then inner else outer
  in pick

def main (x: i32) : i32 = x
