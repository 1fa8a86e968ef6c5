-- `let` patterns must be irrefutable: a constructor of a sum type with
-- several constructors may fail to match.
-- ==
-- error: Refutable pattern

type t = #yes i32 | #no

def main (x: i32) : i32 =
  let #yes y = (#yes x : t)
  in y
