-- Array constructors: iota, replicate (of scalars and arrays), tabulate
-- and tabulate_2d.
-- ==
-- entry: iotas
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] [0i64, 2i64, 4i64, 6i64] }
-- input { 0i64 } output { empty([0]i64) empty([0]i64) }
-- entry: reps
-- input { 3i64 1.5f32 } output { [1.5f32, 1.5f32, 1.5f32] [[1i32, 2i32], [1i32, 2i32], [1i32, 2i32]] }
-- input { 0i64 1.5f32 } output { empty([0]f32) empty([0][2]i32) }
-- entry: tab
-- input { 5i64 } output { [-1i64, 0i64, 3i64, 8i64, 15i64] }
-- entry: tab2
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }
-- input { 1i64 0i64 } output { empty([1][0]i64) }

entry iotas (n: i64) : ([]i64, []i64) = (iota n, map (* 2) (iota n))

entry reps (n: i64) (x: f32) : ([]f32, [][]i32) = (replicate n x, replicate n [1, 2])

entry tab (n: i64) : []i64 = tabulate n (\i -> i * i - 1)

entry tab2 (n: i64) (m: i64) : [][]i64 = tabulate_2d n m (\i j -> i * 10 + j)
