-- Conditionals as expressions: chains, inside arithmetic, returning
-- tuples and arrays.
-- ==
-- entry: classify
-- input { -4i32 } output { -1i32 }
-- input { 0i32 } output { 0i32 }
-- input { 9i32 } output { 1i32 }
-- entry: in_arith
-- input { 7i32 } output { 24i32 }
-- input { 2i32 } output { 10i32 }
-- entry: tuple_if
-- input { true 2.5f64 } output { 2.5f64 true }
-- input { false 2.5f64 } output { -2.5f64 false }
-- entry: array_if
-- input { true [1i32, 2i32, 3i32] } output { [2i32, 3i32, 4i32] }
-- input { false [1i32, 2i32, 3i32] } output { [3i32, 2i32, 1i32] }

entry classify (x: i32) : i32 = if x < 0 then -1 else if x == 0 then 0 else 1

entry in_arith (x: i32) : i32 = 10 + (if x > 5 then x else 0) * 2

entry tuple_if (b: bool) (x: f64) : (f64, bool) =
  if b then (x, true) else (-x, false)

entry array_if (b: bool) (xs: []i32) : []i32 =
  if b then map (+ 1) xs else reverse xs
