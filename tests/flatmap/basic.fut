-- flatmap: lengths, flags (first element of each non-empty segment),
-- offsets, concatenated segments and values, with empty segments at the
-- start, middle and end, and an empty input.
-- ==
-- input { [0i64, 3i64, 0i64, 1i64, 2i64, 0i64] }
-- output { [0i64, 3i64, 0i64, 1i64, 2i64, 0i64]
--          [true, false, false, true, true, false]
--          [0i64, 0i64, 3i64, 3i64, 4i64, 6i64]
--          [10i64, 11i64, 12i64, 30i64, 40i64, 41i64]
--          [0i64, 1i64, 4i64, 9i64, 16i64, 25i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) empty([0]i64) }

def main [n] (ks: [n]i64) : ([n]i64, []bool, [n]i64, []i64, [n]i64) =
  flatmap (\(i, k) -> (map (+ i * 10) (iota k), i * i)) (zip (iota n) ks)
