-- concat / ++, reverse and rotate (positive, negative and wrapping
-- amounts; rotate r gives b[i] = a[(i + r) mod n]).
-- ==
-- entry: cat
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] } output { [1i32, 2i32, 3i32, 4i32, 5i32] [3i32, 4i32, 5i32, 1i32, 2i32, 3i32, 4i32, 5i32] }
-- input { empty([0]i32) [9i32] } output { [9i32] [9i32, 9i32] }
-- entry: rev
-- input { [1i32, 2i32, 3i32] } output { [3i32, 2i32, 1i32] [1i32, 2i32, 3i32] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- entry: rot
-- input { 2i64 [1i32, 2i32, 3i32, 4i32, 5i32] } output { [3i32, 4i32, 5i32, 1i32, 2i32] }
-- input { -1i64 [1i32, 2i32, 3i32, 4i32, 5i32] } output { [5i32, 1i32, 2i32, 3i32, 4i32] }
-- input { 7i64 [1i32, 2i32, 3i32, 4i32, 5i32] } output { [3i32, 4i32, 5i32, 1i32, 2i32] }
-- input { 0i64 [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] }
-- input { 3i64 empty([0]i32) } output { empty([0]i32) }
-- entry: rot2
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] } output { [[8i32, 9i32, 7i32], [2i32, 3i32, 1i32], [5i32, 6i32, 4i32]] }
-- entry: cat2
-- input { [[1i32, 2i32]] [[3i32, 4i32], [5i32, 6i32]] } output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [[3i32, 4i32, 3i32, 4i32], [5i32, 6i32, 5i32, 6i32]] }

entry cat (xs: []i32) (ys: []i32) : ([]i32, []i32) = (concat xs ys, ys ++ xs ++ ys)

entry rev (xs: []i32) : ([]i32, []i32) = (reverse xs, reverse (reverse xs))

entry rot (r: i64) (xs: []i32) : []i32 = rotate r xs

entry rot2 (m: [][]i32) : [][]i32 = map (rotate 1) (rotate (-1) m)

entry cat2 (a: [][]i32) (b: [][]i32) : ([][]i32, [][]i32) = (a ++ b, map2 (++) b b)
