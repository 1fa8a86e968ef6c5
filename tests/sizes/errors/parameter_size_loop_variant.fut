-- The size of a loop parameter that changes between iterations cannot
-- become the size of a parameter of the enclosing function.
-- ==
-- error: Loop-variant size "\?[0-9]+" would be in the type of parameter "ys"

def grow [n] (xs: [n]f64) : []f64 = xs ++ xs

def step [d] (xs: [d]f64) (ys: [d]f64) : [d]f64 = map2 (+) xs ys

def main (xs: []f64) (ys: []f64) : []f64 =
  loop xs for _i < 2 do step (grow xs) ys
