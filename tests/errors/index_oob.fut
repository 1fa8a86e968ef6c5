-- Indexing outside an array's bounds is a run-time error, in one and two
-- dimensions; valid indices still work.
-- ==
-- entry: index1
-- input { [1i32, 2i32, 3i32] 2i64 } output { 3i32 }
-- input { [1i32, 2i32, 3i32] 3i64 } error: [Oo]ut of bounds|[Ii]ndex
-- input { [1i32, 2i32, 3i32] -1i64 } error: [Oo]ut of bounds|[Ii]ndex
-- input { empty([0]i32) 0i64 } error: [Oo]ut of bounds|[Ii]ndex
-- entry: index2
-- input { [[1i32, 2i32], [3i32, 4i32]] 1i64 1i64 } output { 4i32 }
-- input { [[1i32, 2i32], [3i32, 4i32]] 0i64 2i64 } error: [Oo]ut of bounds|[Ii]ndex
-- entry: in_map
-- input { [0i64, 1i64, 5i64] } error: [Oo]ut of bounds|[Ii]ndex

entry index1 (xs: []i32) (i: i64) : i32 = xs[i]

entry index2 (m: [][]i32) (i: i64) (j: i64) : i32 = m[i, j]

entry in_map (is: []i64) : []i32 = map (\i -> [10, 20, 30][i]) is
