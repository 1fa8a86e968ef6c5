-- foldl and foldr with non-associative operators, so that the order of
-- application is visible.
-- ==
-- entry: fl
-- input { [1i32, 2i32, 3i32] } output { 94i32 }
-- input { empty([0]i32) } output { 100i32 }
-- entry: fr
-- input { [1i32, 2i32, 3i32] } output { -98i32 }
-- input { empty([0]i32) } output { 100i32 }
-- entry: fl_tuple
-- input { [1.0f64, 2.0f64, 4.0f64] } output { 5.25f64 3i64 }
-- entry: fr_digits
-- input { [1i64, 2i64, 3i64] } output { 321i64 }

entry fl (xs: []i32) : i32 = foldl (-) 100 xs

entry fr (xs: []i32) : i32 = foldr (-) 100 xs

entry fl_tuple (xs: []f64) : (f64, i64) = foldl (\(s, n) x -> (s * 0.5 + x, n + 1)) (0.0, 0) xs

-- Reads the digits most-significant last.
entry fr_digits (ds: []i64) : i64 = foldr (\d acc -> acc * 10 + d) 0 ds
