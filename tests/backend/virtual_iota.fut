-- An iota that only SOACs read is not stored: its elements are computed
-- where the SOACs read them (see crates/imp/src/lower/iota.rs). The
-- results must be those of a stored iota.

-- ==
-- entry: sum_iota
-- input { 0i64 } output { 0i64 }
-- input { 10i64 } output { 45i64 }
-- input { 100000i64 } output { 4999950000i64 }
-- input { -1i64 } error: Range 0..1..<-1 is invalid
entry sum_iota (n: i64) : i64 = iota n |> reduce (+) 0

-- Ranges with a start and a step, of another integer type, zipped with a
-- stored array; a scan and a map over the same iota.
-- ==
-- entry: ranges
-- input { [10i32, 20i32, 30i32, 40i32] }
-- output { [13i32, 25i32, 37i32, 49i32] [3i32, 8i32, 15i32, 24i32] }
entry ranges [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  let r = map i32.i64 (map (\i -> 3 + 2 * i) (iota n))
  in (map2 (+) xs r, scan (+) 0 r)

-- Inside a parallel map, and where the same iota is also a result (then
-- it is stored).
-- ==
-- entry: nested
-- input { 3i64 } output { [0i64, 1i64, 3i64] [0i64, 1i64, 2i64] }
entry nested (n: i64) : ([]i64, []i64) =
  let is = iota n
  in (map (\i -> reduce (+) 0 (iota (i + 1))) is, is)

-- Larger than memory if stored (16 GB); a few seconds computed.
-- ==
-- entry: huge
-- compiled input { 2000000000i64 } output { 5999999995i64 }
entry huge (n: i64) : i64 = iota n |> map (\i -> i % 7) |> reduce (+) 0
