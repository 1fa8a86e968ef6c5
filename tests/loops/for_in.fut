-- for-in loops over arrays, arrays of tuples and rows of a matrix.
-- ==
-- entry: alternating
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] } output { 3i32 }
-- input { empty([0]i32) } output { 0i32 }
-- entry: pairs
-- input { [1.0f64, 2.0f64, 3.0f64] [4.0f64, 5.0f64, 6.0f64] } output { 24.0f64 }
-- entry: rows
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [10i32, 11i32] }

entry alternating (xs: []i32) : i32 = loop acc = 0 for x in xs do x - acc

entry pairs [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  loop acc = 0.0 for (x, y) in zip xs ys do acc * 0.5 + x * y

-- The state is a whole row; each step adds the next row in reverse.
entry rows [m] (xss: [][m]i32) : [m]i32 =
  loop acc = replicate m 0 for r in xss do map2 (+) (reverse acc) r
