-- A functor's argument must match its parameter's module type.
-- ==
-- error: requires a value 'val P\.k'

module f (P: { val k : i32 }) = { def y = P.k }
module g = f { def j = 1i32 }
