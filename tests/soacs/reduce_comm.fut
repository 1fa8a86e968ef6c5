-- reduce_comm with commutative operators, scalar and tuple.
-- ==
-- entry: sum
-- input { [5i32, 6i32, 7i32] } output { 18i32 }
-- input { empty([0]i32) } output { 0i32 }
-- entry: min_index
-- input { [4i32, 1i32, 9i32, 1i32] } output { 1i32 1i64 }
-- entry: count_max
-- input { [2.0f64, 8.0f64, 8.0f64, -1.0f64] } output { 8.0f64 2i32 }

entry sum (xs: []i32) : i32 = reduce_comm (+) 0 xs

entry min_index [n] (xs: [n]i32) : (i32, i64) =
  reduce_comm (\(a, i) (b, j) -> if a < b || (a == b && i < j) then (a, i) else (b, j))
              (i32.highest, i64.highest)
              (zip xs (iota n))

entry count_max (xs: []f64) : (f64, i32) =
  reduce_comm (\(a, n) (b, m) -> if a > b then (a, n) else if b > a then (b, m) else (a, n + m))
              (-f64.inf, 0)
              (map (\x -> (x, 1)) xs)
