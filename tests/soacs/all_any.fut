-- all and any, including on empty arrays.
-- ==
-- input { [1i32, 2i32, 7i32] } output { true true false true }
-- input { [2i32, -4i32] } output { false true true false }
-- input { empty([0]i32) } output { true false true false }

def main (xs: []i32) : (bool, bool, bool, bool) =
  (all (> 0) xs, any (> 0) xs, all (\x -> x % 2 == 0) xs, any (== 7) xs)
