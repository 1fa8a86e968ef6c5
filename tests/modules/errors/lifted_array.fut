-- Arrays of a module's lifted type are not allowed: it might be a function.
-- ==
-- error: Cannot create array of type 'm.t'

module m : { type^ t val f : t } = { type^ t = i32 -> i32 def f (x: i32) = x }

def fs : []m.t = [m.f]
