-- `split`: the sizes of both parts come from the context.
-- ==
-- entry: parts
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] } output { [1i32, 2i32] [3i32, 4i32, 5i32] }
-- input { empty([0]i32) [3i32] } output { empty([0]i32) [3i32] }
-- entry: pattern
-- input { 1i64 [1i32, 2i32, 3i32, 4i32] } output { 1i32 9i32 }
-- input { 4i64 [1i32, 2i32, 3i32, 4i32] } output { 10i32 0i32 }
-- entry: declared_result
-- input { 3i64 [1.0f64, 2.0f64, 3.0f64, 4.0f64, 5.0f64] } output { [1.0f64, 2.0f64, 3.0f64] [4.0f64, 5.0f64] }
-- entry: wrong_total
-- input { 2i64 [1i32, 2i32, 3i32, 4i32] } output { [1i32, 2i32] [3i32, 4i32] }
-- input { 2i64 [1i32, 2i32, 3i32, 4i32, 5i32] } error: [Ss]ize|[Ss]hape
-- input { 3i64 [1i32, 2i32, 3i32, 4i32] } error: [Ss]ize|[Ss]hape|[Bb]ounds

entry parts [n] [m] (a: [n]i32) (b: [m]i32) : ([n]i32, [m]i32) = split (a ++ b)

entry pattern [n] (k: i64) (xs: [n]i32) : (i32, i32) =
  let (a: [k]i32, b: [n - k]i32) = split xs
  in (i32.sum a, i32.sum b)

entry declared_result [n] (k: i64) (xs: [n]f64) : ([k]f64, [n - k]f64) = split xs

-- Both halves are declared to have `k` elements.
entry wrong_total (k: i64) (xs: []i32) : ([k]i32, [k]i32) = split xs
