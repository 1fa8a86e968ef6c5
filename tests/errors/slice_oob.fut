-- Slices reaching outside the array are run-time errors.
-- ==
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 1i64 3i64 } output { [2i32, 3i32] }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 2i64 10i64 } error: [Oo]ut of bounds|[Ii]ndex|[Ss]lice|[Ii]nvalid
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] -1i64 2i64 } error: [Oo]ut of bounds|[Ii]ndex|[Ss]lice|[Ii]nvalid
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 4i64 2i64 } error: [Oo]ut of bounds|[Ii]ndex|[Ss]lice|[Ii]nvalid

def main (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]
