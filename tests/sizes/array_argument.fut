-- A size expression may apply a function to an array in scope.
-- ==
-- input { [2i64, 5i64] [1f32, 2f32] } output { 2f32 }

def first (xs: []i64) : i64 = xs[0]

def pick [n] (ns: [n]i64) (xs: [first ns]f32) : f32 = xs[1]

entry main (ns: []i64) (xs: []f32) : f32 = pick ns (xs :> [first ns]f32)
