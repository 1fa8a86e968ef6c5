-- Sizes that must agree are checked at run time: zip and map2 on arrays
-- of different lengths (through a size coercion), a failing `:>`, and
-- unflatten with a wrong shape.
-- ==
-- entry: zip_lengths
-- input { [1i32, 2i32] [3i32, 4i32] } output { [4i32, 6i32] }
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] } error: [Ss]ize|[Ss]hape|[Mm]ismatch|[Ll]ength|match
-- entry: map2_lengths
-- input { [1.0f64] [2.0f64, 3.0f64] } error: [Ss]ize|[Ss]hape|[Mm]ismatch|[Ll]ength|match
-- entry: coerce
-- input { 3i64 [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] }
-- input { 2i64 [1i32, 2i32, 3i32] } error: [Ss]ize|[Ss]hape|[Mm]ismatch|[Ll]ength|match
-- entry: bad_unflatten
-- input { 4i64 2i64 [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } error: [Ss]ize|[Ss]hape|[Mm]ismatch|[Ll]ength|match

entry zip_lengths [n] [m] (xs: [n]i32) (ys: [m]i32) : []i32 =
  map (\(x, y) -> x + y) (zip xs (ys :> [n]i32))

entry map2_lengths [n] [m] (xs: [n]f64) (ys: [m]f64) : []f64 =
  map2 (*) xs (ys :> [n]f64)

entry coerce (k: i64) (xs: []i32) : [k]i32 = xs :> [k]i32

entry bad_unflatten (r: i64) (c: i64) (xs: []i32) : [][]i32 = unflatten (xs :> [r * c]i32)
