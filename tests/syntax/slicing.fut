-- Array slices: ranges, open ends, strides (including negative ones) and
-- multi-dimensional slices mixed with indexing.
-- ==
-- entry: basic
-- input { [10i32, 11i32, 12i32, 13i32, 14i32, 15i32] 1i64 4i64 } output { [11i32, 12i32, 13i32] }
-- input { [10i32, 11i32, 12i32, 13i32, 14i32, 15i32] 2i64 2i64 } output { empty([0]i32) }
-- entry: strided
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [0i32, 2i32, 4i32, 6i32] [6i32, 5i32, 4i32, 3i32, 2i32, 1i32, 0i32] [1i32, 4i32] }
-- input { [9i32] } output { [9i32] [9i32] empty([0]i32) }
-- entry: open_ends
-- input { [1i32, 2i32, 3i32, 4i32] 1i64 } output { [2i32, 3i32, 4i32] [1i32] }
-- input { [1i32, 2i32, 3i32, 4i32] 4i64 } output { empty([0]i32) [1i32, 2i32, 3i32, 4i32] }
-- entry: row_col
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] 1i64 } output { [4i32, 5i32, 6i32] [2i32, 5i32, 8i32] 5i32 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] 2i64 } output { [7i32, 8i32, 9i32] [3i32, 6i32, 9i32] 7i32 }
-- entry: block
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32], [9i32, 10i32, 11i32, 12i32]] } output { [[2i32, 3i32], [6i32, 7i32]] [[4i32, 3i32, 2i32, 1i32], [12i32, 11i32, 10i32, 9i32]] }
-- entry: neg_stride
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32] } output { [4i32, 2i32] [3i32, 2i32, 1i32, 0i32] }

entry basic (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]

entry strided (xs: []i32) : ([]i32, []i32, []i32) =
  (xs[::2], xs[::-1], xs[1::3])

entry open_ends (xs: []i32) (i: i64) : ([]i32, []i32) = (xs[i:], xs[:i])

entry row_col (m: [][]i32) (i: i64) : ([]i32, []i32, i32) =
  (m[i], m[:, i], m[i, 2 - i])

entry block (m: [][]i32) : ([][]i32, [][]i32) =
  (m[0:2, 1:3], m[::2, ::-1])

entry neg_stride (xs: []i32) : ([]i32, []i32) = (xs[4:0:-2], xs[3::-1])
