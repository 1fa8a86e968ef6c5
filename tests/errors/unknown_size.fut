-- A size of `unflatten` that nothing determines (neither the argument's
-- type nor the result's) is a compile-time error at the call, not at the
-- prelude's definition.
-- ==
-- error: (?s)size 'm' of 'unflatten' cannot be inferred.*unknown_size\.fut:9:37

def A = 3i64

entry main (xs: []f64) : [A][]f64 = unflatten xs
