-- An empty array keeps the row size its type gives it: `[] : [0]a` with
-- `a` a row type of size `x` has shape [0][x], where the return type or a
-- coercion says so.

-- ==
-- entry: from_polymorphic
-- input { 2i64 } output { 2i64 empty([0][2]i32) }
-- input { 0i64 } output { 0i64 empty([0][0]i32) }
def empty 'a (x: i64) = (x, [] : [0]a)

entry from_polymorphic x : (i64, [][x]i32) = empty x

-- ==
-- entry: coerced
-- input { 3i64 } output { empty([0][3]f64) }
entry coerced (n: i64) = ([] : [0][0]f64) :> [0][n]f64

-- A non-empty array is checked, not reshaped.
-- ==
-- entry: checked
-- input { 2i64 } error: cannot match shape
entry checked (n: i64) = [[1i32]] :> [1][n]i32

-- Rows of a record field, and a dimension that stays as it was.
-- ==
-- entry: field
-- input { 4i64 } output { empty([0][4]bool) 4i64 }
entry field (n: i64) : ([][n]bool, i64) =
  let r = {a = [] : [0][0]bool, b = n}
  in ((r :> {a: [0][n]bool, b: i64}).a, r.b)
