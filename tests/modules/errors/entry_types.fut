-- An opaque type cannot be confused with another module's.
-- ==
-- error: cannot unify

module type t1 = { type t val v : t }
module a : t1 = { type t = i32 def v = 1i32 }
module b : t1 = { type t = i32 def v = 2i32 }
def main : a.t = b.v
