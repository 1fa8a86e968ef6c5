-- Sizes of parameters that nothing in the function determines are size
-- parameters read off the arguments: the inferred type of `pairs` says
-- both arrays have one size, and its result has it too.

def pairs xs ys = zip xs ys

def gather xs indices = map (\(i: i64) -> xs[i]) indices

-- ==
-- entry: main
-- input { [1, 2, 3] [4, 5, 6] [2i64, 0i64] }
-- output { [1, 2, 3] [4, 5, 6] [3, 1] }
-- input { [1, 2, 3] [4, 5] [0i64] }
-- error: .*
entry main [n] [k] (xs: [n]i32) (ys: []i32) (is: [k]i64) : ([n]i32, [n]i32, [k]i32) =
  let (a, b) = unzip (pairs xs (ys :> [n]i32))
  in (a, b, gather xs is)
