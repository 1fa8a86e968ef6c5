-- Sizes of `unflatten` inferred from the context: the declared result
-- type, the argument's size expression, a later ascription, `sized`,
-- `tabulate` with a size expression, and maps of `unflatten`.
-- ==
-- entry: rows4
-- input { [[1f32, 2f32, 3f32, 4f32], [5f32, 6f32, 7f32, 8f32]] }
-- output { [[1f32, 2f32, 3f32, 4f32], [5f32, 6f32, 7f32, 8f32]] }
-- input { empty([0][4]f32) } output { empty([0][4]f32) }
-- entry: inner
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]], [[9f32, 10f32], [11f32, 12f32]], [[13f32, 14f32], [15f32, 16f32]]] }
-- output { [[[2f32, 4f32], [6f32, 8f32]], [[10f32, 12f32], [14f32, 16f32]], [[18f32, 20f32], [22f32, 24f32]], [[26f32, 28f32], [30f32, 32f32]]] }
-- entry: tab
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
-- input { 0i64 3i64 } output { empty([0][3]i64) }
-- entry: later
-- input { 3i64 2i64 [1f64, 2f64, 3f64, 4f64, 5f64, 6f64] } output { [3f64, 7f64, 11f64] }
-- input { 4i64 2i64 [1f64, 2f64, 3f64, 4f64, 5f64, 6f64] } error: [Ss]ize|[Ss]hape
-- entry: declared
-- input { 2i64 2i64 [1f64, 2f64, 3f64, 4f64] } output { [[1f64, 3f64], [2f64, 4f64]] }
-- entry: cube
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]]] }
-- output { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]]] }
-- entry: cube3
-- input { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]]] }
-- output { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]]] }
-- entry: by_coercion
-- input { 2i64 3i64 [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- input { 2i64 2i64 [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } error: [Ss]ize|[Ss]hape
-- entry: local_fun
-- input { [[1i64, 2i64], [3i64, 4i64], [5i64, 6i64]] } output { [[2i64, 3i64], [4i64, 5i64], [6i64, 7i64]] }

entry rows4 [n] (xs: [n][4]f32) : [n][4]f32 = flatten xs |> unflatten

entry inner [n] (xs: [4][n][2]f32) : [4][n][2]f32 =
  map flatten xs |> map (map (* 2)) |> map unflatten

entry tab (n: i64) (m: i64) : [n][m]i64 = tabulate (n * m) (\i -> i) |> unflatten

-- The sizes come from an ascription after the call.
entry later (n: i64) (m: i64) (xs: []f64) : [n]f64 =
  let ys = unflatten xs
  let zs: [n][m]f64 = ys
  in map f64.sum zs

entry declared (n: i64) (m: i64) (xs: []f64) : [m][n]f64 =
  let ys: [n][m]f64 = unflatten (xs :> [n * m]f64)
  in transpose ys

entry cube [n] [m] [k] (xs: [n][m][k]f32) : [n][m][k]f32 =
  let res = flatten_3d xs
  in unflatten (sized (n * (m * k)) res) |> map unflatten

entry cube3 [n] [m] [k] (xs: [n][m][k]i32) : [n][m][k]i32 =
  unflatten_3d (flatten_3d xs)

entry by_coercion (r: i64) (c: i64) (xs: []i32) : [][]i32 = unflatten (xs :> [r * c]i32)

-- A local function with size parameters, instantiated from its result type.
entry local_fun [n] (xs: [n][2]i64) : [n][2]i64 =
  let reshape [a] [b] (ys: [a * b]i64) : [a][b]i64 = unflatten ys
  in reshape (map (+ 1) (flatten xs))
