-- Only parametric modules can be applied.
-- ==
-- error: cannot apply a module that is not parametric

module a = { def x = 1i32 }
module b = a a
