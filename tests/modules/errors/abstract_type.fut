-- An abstract type is not its representation outside the module.
-- ==
-- error: cannot unify .i32. with .c\.t.

module c : { type t val mk : i32 -> t } = { type t = i32 def mk (x: i32) = x }

def main (x: i32) : i32 = c.mk x
