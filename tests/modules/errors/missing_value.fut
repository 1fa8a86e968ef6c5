-- A module must define every value its module type specifies.
-- ==
-- error: requires a value 'val m\.g'

module m : { val f : i32 -> i32 val g : i32 } = { def f (x: i32) = x }
