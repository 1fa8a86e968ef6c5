-- A function `t -> t` keeps the size of an array it is given: one that
-- doubles it cannot be passed for it.
-- ==
-- error: Occurs check: a size would have to be made of itself

def twice 't (g: t -> t) (v: t) : t = g (g v)

def main [k] (v: [k]f32) = twice (\ys -> concat ys ys) v
