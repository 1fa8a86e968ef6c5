-- flatten, unflatten and transpose.
-- ==
-- entry: flat
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }
-- entry: unflat
-- input { 2i64 3i64 [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- input { 3i64 2i64 [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- entry: roundtrip
-- input { [[1.0f64, 2.0f64], [3.0f64, 4.0f64], [5.0f64, 6.0f64]] } output { [[2.0f64, 4.0f64], [6.0f64, 8.0f64], [10.0f64, 12.0f64]] }
-- entry: transp
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[1i32, 4i32], [2i32, 5i32], [3i32, 6i32]] }
-- input { [[7i32]] } output { [[7i32]] }
-- entry: flat3
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] } output { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] [[1i32, 3i32], [2i32, 4i32], [5i32, 7i32], [6i32, 8i32]] }

entry flat (m: [][]i32) : []i32 = flatten m

entry unflat (r: i64) (c: i64) (xs: []i32) : [][]i32 = unflatten (xs :> [r * c]i32)

entry roundtrip [n] [m] (a: [n][m]f64) : [n][m]f64 = unflatten (flatten (map (map (* 2.0)) a))

entry transp (m: [][]i32) : [][]i32 = transpose m

entry flat3 (a: [][][]i32) : ([]i32, [][]i32) = (flatten (flatten a), map transpose a |> flatten)
