-- A constant declared with a function type that does not consume cannot
-- be a function that does.
-- ==
-- error: Function body does not have expected type.*incompatible regarding consuming

def first (xs: *[]f32) : f32 = xs[0]

entry g : []f32 -> f32 = first
