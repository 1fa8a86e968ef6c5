-- Properties checked on randomly generated inputs: the expected results
-- do not depend on the values drawn.
-- ==
-- entry: len_after_map
-- random input { [100]f32 } output { 100i64 }
-- random input { [1000]f32 } output { 1000i64 }
-- entry: squares_nonneg
-- random input { [1000]f32 } output { true }
-- entry: sum_reverse
-- random input { [1000]i32 } output { true }
-- entry: filter_partition
-- random input { [500]i32 } output { true }

entry len_after_map (xs: []f32) : i64 = length (map (\x -> x * 2.0) xs)

entry squares_nonneg (xs: []f32) : bool = all (\x -> x >= 0.0) (map (\x -> x * x) xs)

-- Wrapping integer addition is associative and commutative.
entry sum_reverse (xs: []i32) : bool = reduce (+) 0 xs == reduce (+) 0 (reverse xs)

entry filter_partition (xs: []i32) : bool =
  let (a, b) = partition (\x -> x % 3 == 0) xs
  let c = filter (\x -> x % 3 == 0) xs
  in length a == length c
     && all (\i -> a[i] == c[i]) (iota (length a))
     && length a + length b == length xs
