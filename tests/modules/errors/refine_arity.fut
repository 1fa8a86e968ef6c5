-- A refinement has the parameters of the abstract type.
-- ==
-- error: Cannot refine a type: 't' is declared with parameters ''a' but refined with 'none'

module type mt = { type t 'a }
module type mt2 = mt with t = i64
