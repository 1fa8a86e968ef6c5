-- A value must have the type its specification gives.
-- ==
-- error: 'm\.f' is specified as 'val f: i32 -> i32', but has type 'f32 -> f32'

module m : { val f : i32 -> i32 } = { def f (x: f32) = x }
