-- Branches of different sizes make an unknown size, which is not the
-- size the result type asks for; the message names both branches' types.
-- ==
-- error: Sizes "3" and "\?[0-9]+" do not match.*branches of the conditional.*\[n\]i32.*\[m\]i32

def main [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) : [3]i32 =
  if b then xs else ys
