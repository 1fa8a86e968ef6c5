-- Unknown sizes (from filter, if, slices, ranges, loops) are each equal
-- to themselves: programs that keep using the same one type-check and
-- run.

-- The same filtered array, used twice.
-- ==
-- entry: same_filter
-- input { [1, -2, 3] } output { [1, 3] [2, 4] }
entry same_filter (xs: []i32) =
  let ys = filter (> 0) xs
  in unzip (zip ys (map (+ 1) ys))

-- Slices with the same bounds have the same size, whatever the bounds.
-- ==
-- entry: same_bounds
-- input { [1, 2, 3, 4] [5, 6, 7, 8] 0i64 1i64 } output { [6, 8, 10] }
def f (x: i64) = x + 1
def g (x: i64) = x * 4
entry same_bounds [n] (xs: [n]i32) (ys: [n]i32) (i: i64) (j: i64) =
  map2 (+) xs[f i - 1:g j - 1] ys[f i - 1:g j - 1]

-- `xs[i:j]` has `j - i` elements, `xs[::-1]` as many as `xs`.
-- ==
-- entry: slice_sizes
-- input { [1, 2, 3, 4] 1i64 3i64 } output { [2, 3] [4, 3, 2, 1] }
entry slice_sizes [n] (xs: [n]i32) (i: i64) (j: i64) : ([j - i]i32, [n]i32) =
  (xs[i:j], xs[::-1])

-- An `if` whose branches differ in size gives one unknown size to the
-- positions where the branches have the same pair of sizes.
-- ==
-- entry: if_pairs
-- input { true } output { [1, 2, 3] [4, 5, 6] }
-- input { false } output { [1, 2] [3, 4] }
entry if_pairs (b: bool) =
  let (xs, ys) = if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3, 4])
  in unzip (zip xs ys)

-- A function whose result is `?[k].([k]a, [k]b)` gives both the same
-- unknown size.
-- ==
-- entry: shared_existential
-- input { [1, -2, 3] } output { [1, 3] [2, 4] }
def split_pos (xs: []i32) : ?[k].([k]i32, [k]i32) =
  let ys = filter (> 0) xs
  in (ys, map (+ 1) ys)
entry shared_existential (xs: []i32) =
  let (a, b) = split_pos xs
  in unzip (zip a b)

-- `a..<b` has `b - a` elements.
-- ==
-- entry: ranges
-- input { 3i64 } output { [1i64, 2i64, 3i64] [0i64, 1i64, 2i64] }
entry ranges (n: i64) : ([n + 1 - 1]i64, [n]i64) = (1..<n + 1, 0..1..<n)

-- A loop keeps the size its body keeps, even when the body computes the
-- array anew.
-- ==
-- entry: loop_keeps
-- input { [1, 2, 3] } output { [4, 5, 6] }
entry loop_keeps [n] (xs: [n]i32) : [n]i32 =
  loop ys = xs for _i < 3 do tabulate n (\i -> ys[i] + 1)

-- A parameter whose function type names its parameter gives results of
-- the size its argument says.
-- ==
-- entry: dependent_parameter
-- input { 3i64 } output { [0i64, 1i64, 2i64] }
def ap (f: (n: i64) -> [n]i64) (k: i64) : [k]i64 = f k
entry dependent_parameter (k: i64) = ap (\n -> iota n) k

-- A parameter whose function type has an unknown result size gives each
-- application its own.
-- ==
-- entry: existential_parameter
-- input { [1, -2, 3] } output { 2i64 }
def count (f: []i32 -> []i32) (xs: []i32) = length (f xs)
entry existential_parameter (xs: []i32) = count (filter (> 0)) xs

-- An empty literal's size bound by a let is its outer size, 0, wherever
-- else the pattern names it.
-- ==
-- entry: empty_square
-- input { 1 } output { 0i64 }
entry empty_square (_: i32) =
  let [k] (_: [k][k]i64) = []
  in k
