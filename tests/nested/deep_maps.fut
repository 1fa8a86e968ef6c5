-- Maps nested three deep, with the result depending on all indices.
-- ==
-- entry: add_indices
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] } output { [[[1i32, 3i32], [13i32, 15i32]], [[105i32, 107i32], [117i32, 119i32]]] }
-- entry: outer3
-- input { [1i32, 2i32] [10i32, 20i32] [100i32, 200i32, 300i32] } output { [[[111i32, 211i32, 311i32], [121i32, 221i32, 321i32]], [[112i32, 212i32, 312i32], [122i32, 222i32, 322i32]]] }
-- entry: sum_inner
-- input { [[[1.0f64, 2.0f64], [3.0f64, 4.0f64]], [[0.5f64, 0.5f64], [-1.0f64, 1.0f64]]] } output { [[3.0f64, 7.0f64], [1.0f64, 0.0f64]] }

entry add_indices [a] [b] [c] (x: [a][b][c]i32) : [a][b][c]i32 =
  map2 (\i plane ->
          map2 (\j row ->
                  map2 (\k v -> v + i32.i64 (100 * i + 10 * j + k)) (iota c) row)
               (iota b) plane)
       (iota a) x

entry outer3 (xs: []i32) (ys: []i32) (zs: []i32) : [][][]i32 =
  map (\x -> map (\y -> map (\z -> x + y + z) zs) ys) xs

entry sum_inner (x: [][][]f64) : [][]f64 = map (map (reduce (+) 0.0)) x
