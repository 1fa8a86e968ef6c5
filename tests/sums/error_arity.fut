-- A constructor pattern must have the constructor's number of payloads.
-- ==
-- error: #pair.*differ in arity

type t = #pair i32 i32 | #single i32

def main (v: t) : i32 =
  match v
  case #pair x -> x
  case #single x -> x
