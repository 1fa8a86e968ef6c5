-- intrinsics.flat_index_2d/3d and flat_update_2d: views of a flat array
-- through an offset and (size, stride) pairs, and writes through them.
-- ==
-- entry: view2
-- input { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 8i64] }
-- output { [[1i64, 4i64, 7i64], [2i64, 5i64, 8i64]] }
-- entry: view3
-- input { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64] }
-- output { [[[7i64, 6i64], [5i64, 4i64]], [[3i64, 2i64], [1i64, 0i64]]] }
-- entry: write2
-- input { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64] }
-- output { [1i64, 0i64, 2i64, 3i64, 0i64, 4i64] }
-- input { [0i64, 0i64, 0i64] }
-- error: out of bounds

-- the transpose of rows 0..2 of a 3x3 matrix, from column 1
entry view2 (xs: []i64) : [2][3]i64 = intrinsics.flat_index_2d xs 1 2 1 3 3 :> [2][3]i64

-- the whole array backwards, as a 2x2x2 cube (negative strides)
entry view3 (xs: []i64) : [2][2][2]i64 = intrinsics.flat_index_3d xs 7 2 (-4) 2 (-2) 2 (-1) :> [2][2][2]i64

-- [[1, 2], [3, 4]] written at 0 + 3i + 2j
entry write2 (xs: *[]i64) : []i64 = intrinsics.flat_update_2d xs 0 3 2 [[1, 2], [3, 4]]
