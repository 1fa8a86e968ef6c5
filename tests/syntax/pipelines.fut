-- The pipeline operators |> and <|.
-- ==
-- entry: forward
-- input { [1i32, 2i32, 3i32, 4i32] } output { 14i32 }
-- input { empty([0]i32) } output { 0i32 }
-- entry: backward
-- input { [1i32, 2i32, 3i32, 4i32] } output { 120i32 }
-- entry: squares
-- input { 5i64 } output { 30i64 }
-- input { 0i64 } output { 0i64 }

entry forward (xs: []i32) : i32 =
  xs |> map (* 2) |> filter (> 4) |> reduce (+) 0

entry backward (xs: []i32) : i32 =
  reduce (*) 1 <| map (+ 1) <| xs

entry squares (n: i64) : i64 =
  iota n |> map (\i -> i * i) |> reduce (+) 0
