-- filter and partition keep the original order of the elements.
-- ==
-- entry: evens
-- input { [1i32, 2i32, 3i32, 4i32, -6i32] } output { [2i32, 4i32, -6i32] }
-- input { [1i32, 3i32] } output { empty([0]i32) }
-- entry: positives
-- input { [0.5f64, -1.0f64, 2.0f64, 0.0f64] } output { [0.5f64, 2.0f64] 2i64 }
-- entry: split_sign
-- input { [3i32, -1i32, -4i32, 2i32, 0i32, -9i32] } output { [-1i32, -4i32, -9i32] [3i32, 2i32, 0i32] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- entry: partition_pairs
-- input { [1i32, 5i32, 2i32, 7i32] [0.5f32, 1.5f32, 2.5f32, 3.5f32] } output { [5i32, 7i32] [1.5f32, 3.5f32] [1i32, 2i32] [0.5f32, 2.5f32] }

entry evens (xs: []i32) : []i32 = filter (\x -> x % 2 == 0) xs

entry positives (xs: []f64) : ([]f64, i64) =
  let ys = filter (> 0.0) xs
  in (ys, length ys)

entry split_sign (xs: []i32) : ([]i32, []i32) = partition (< 0) xs

entry partition_pairs [n] (xs: [n]i32) (ys: [n]f32) : ([]i32, []f32, []i32, []f32) =
  let (a, b) = partition (\(x, _) -> x > 2) (zip xs ys)
  let (a1, a2) = unzip a
  let (b1, b2) = unzip b
  in (a1, a2, b1, b2)
