-- Sizes through loops and branches: a loop that keeps its parameter's
-- size keeps the initial size; a size that changes is unknown after the
-- loop, and is then given by the declared result type.
-- ==
-- entry: kept
-- input { 2i64 3i64 } output { [[3i32, 3i32, 3i32], [3i32, 3i32, 3i32]] }
-- entry: doubled
-- input { 2i64 [1i32, 2i32] } output { [[1i32, 2i32], [1i32, 2i32]] }
-- entry: branch
-- input { true 2i64 } output { [[0i64, 1i64], [2i64, 3i64]] }
-- input { false 2i64 } output { [[3i64, 2i64], [1i64, 0i64]] }

entry kept (n: i64) (m: i64) : [n][m]i32 =
  let xs = loop acc = replicate (n * m) 0i32 for _i < 3 do map (+ 1) acc
  in unflatten xs

entry doubled [k] (r: i64) (xs: [k]i32) : [r][k]i32 =
  let ys = loop acc = xs for _i < r do acc ++ xs
  in unflatten (ys[k:] :> [r * k]i32)

entry branch (b: bool) (n: i64) : [n][n]i64 =
  let xs = if b then iota (n * n) else reverse (iota (n * n))
  in unflatten xs
