-- Nested loops: a triangular double loop, and Floyd–Warshall shortest
-- paths on a small graph (loops carrying a matrix).
-- ==
-- entry: triangle
-- input { 4i64 } output { 210i64 }
-- input { 0i64 } output { 0i64 }
-- entry: floyd
-- input { [[0i32, 3i32, 100i32, 7i32], [8i32, 0i32, 2i32, 100i32], [5i32, 100i32, 0i32, 1i32], [2i32, 100i32, 100i32, 0i32]] } output { [[0i32, 3i32, 5i32, 6i32], [5i32, 0i32, 2i32, 3i32], [3i32, 6i32, 0i32, 1i32], [2i32, 5i32, 7i32, 0i32]] }

entry triangle (n: i64) : i64 =
  loop acc = 0 for i < n do
    loop acc for j < i + 1 do acc + i * 10 + j

entry floyd [n] (d0: [n][n]i32) : [n][n]i32 =
  loop d = copy d0 for k < n do
    tabulate_2d n n (\i j -> i32.min d[i, j] (d[i, k] + d[k, j]))
