-- Declared sizes are never ignored: where a value's size is known only
-- at run time, each place that declares one checks it, and a mismatch is
-- an error that shows the value's shape and the declared type.
-- ==
-- entry: let_ascription
-- input { [1, 2, 3] } output { [1, 2, 3] }
-- input { [1, 2, 3, 4] } error: `xs` of shape \[4\] cannot match shape of type "\[3\]i32"
-- entry: return_type
-- input { [1, 2] } output { [1, 2] }
-- input { [1, 2, 3] } error: `xs` of shape \[3\] cannot match shape of type "\[2\]i32"
-- entry: constant_param
-- input { [5, 6, 7] } output { 5 }
-- input { [5, 6] } error: `xs` of shape \[2\] cannot match shape of type "\[3\]i32"
-- entry: lambda_param
-- input { [[1, 2], [3, 4]] } output { [1, 3] }
-- input { [[1, 2, 3]] } error: `row` of shape \[3\] cannot match shape of type "\[2\]i32"
-- entry: loop_param
-- input { 3i64 [1, 2, 3] } output { [4, 5, 6] }
-- input { 2i64 [1, 2, 3] } error: of shape \[3\] cannot match shape of type "\[2\]i32"
-- entry: tuple_pattern
-- input { [1, 2] [3] } output { 3 }
-- input { [1, 2] [3, 4] } error: component 1 of value of shape \[2\] cannot match shape of type "\[1\]i32"
-- entry: coercion
-- input { [[1, 2], [3, 4]] 2i64 2i64 } output { [[1, 2], [3, 4]] }
-- input { [[1, 2], [3, 4]] 2i64 3i64 } error: `xss` of shape \[2\]\[2\] cannot match shape of type "\[2\]\[3\]i32"

entry let_ascription (xs: []i32) = let a : [3]i32 = xs in a

entry return_type (xs: []i32) : [2]i32 = xs

def first (xs: [3]i32) = xs[0]
entry constant_param (xs: []i32) = first xs

entry lambda_param (xss: [][]i32) = map (\(row: [2]i32) -> row[0]) xss

entry loop_param (n: i64) (xs: []i32) =
  loop (acc: [n]i32) = xs for _i < 3 do map (+ 1) acc

entry tuple_pattern (xs: []i32) (ys: []i32) =
  let (_, b: [1]i32) = (xs, ys) in b[0]

entry coercion (xss: [][]i32) (a: i64) (b: i64) = xss :> [a][b]i32

-- The sizes inside an empty dimension are not checked (a `map` over no
-- rows need not know the rows' size).
-- ==
-- entry: empty_rows
-- input { empty([0][3]f64) 4i64 } output { 0i64 }
-- input { [[1.0, 2.0]] 3i64 } output { 1i64 }

def rows [n][m] (xss: [n][m]f64) (p: i64) : [n][p]f64 =
  map (\row -> replicate p (f64.sum row)) xss

entry empty_rows (xss: [][]f64) (p: i64) = length (rows xss p)

-- An entry point's argument whose size is not the declared one is an
-- invalid argument (as Futhark reports it).
-- ==
-- entry: entry_param
-- input { 1i64 [1, 2] } output { 1i64 }
-- input { 1i64 [1, 2, 3] } error: entry point arguments have invalid sizes: `_` of shape \[3\] cannot match shape of type "\[2\]i32"

entry entry_param (x: i64) (_: [x + 1]i32) = x
