-- A loop parameter whose size changes from one iteration to the next has
-- an unknown size after the loop, not the initial value's.
-- ==
-- error: Sizes "1" and "\?[0-9]+" do not match.*loop parameter that changes

def main (n: i32) : [1]i32 =
  loop xs = [0] for _i < n do xs ++ xs
