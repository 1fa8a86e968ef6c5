-- Only abstract types can be refined.
-- ==
-- error: Cannot refine a type: 't' is not an abstract type

module type mt = { type t = i32 }
module type mt2 = mt with t = i64
