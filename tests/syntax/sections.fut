-- Operator sections: left, right, and full sections, field projection
-- sections and index sections.
-- ==
-- entry: left_right
-- input { [1i32, -2i32, 30i32] } output { [2i32, -1i32, 31i32] [9i32, 12i32, -20i32] [0i32, -1i32, 15i32] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) empty([0]i32) }
-- entry: projections
-- input { [1i32, 2i32, 3i32] [0.5f32, 1.5f32, -2.0f32] } output { [0.5f32, 1.5f32, -2.0f32] [1i32, 2i32, 3i32] }
-- entry: index_section
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [2i32, 5i32] [1i32, 4i32] }
-- entry: full
-- input { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] } output { [4i32, 10i32, 18i32] [-3i32, -3i32, -3i32] [false, false, false] }

entry left_right (xs: []i32) : ([]i32, []i32, []i32) =
  (map (+ 1) xs, map (10 -) xs, map (/ 2) xs)

entry projections [n] (xs: [n]i32) (ys: [n]f32) : ([]f32, []i32) =
  let ps = zip xs ys
  in (map (.1) ps, map (.0) ps)

entry index_section (m: [][]i32) : ([]i32, []i32) =
  (map (.[1]) m, map (.[0]) m)

entry full [n] (xs: [n]i32) (ys: [n]i32) : ([]i32, []i32, []bool) =
  (map2 (*) xs ys, map2 (-) xs ys, map2 (<) ys xs)
