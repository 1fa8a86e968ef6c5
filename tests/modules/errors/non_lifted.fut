-- A type specified with 'type' may not be a function type.
-- ==
-- error: declares it non-lifted

module m : { type t } = { type^ t = i32 -> i32 }
