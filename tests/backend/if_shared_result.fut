-- A branch that returns one fresh array as two results: the first result
-- takes over the array's block, so the second must be stored before it
-- (it used to read the emptied variable: a null pointer in the C backend).
-- ==
-- input { true 3i64 } output { [0i64, 1i64, 2i64] [0i64, 1i64, 2i64] }
-- input { false 2i64 } output { [5i64, 5i64] [0i64, 1i64] }

entry main (b: bool) (n: i64) : ([n]i64, [n]i64) =
  let (xs, ys) = if b then let a = map (* 1) (iota n) in (a, a)
                 else (replicate n 5, iota n)
  in (map (+ 0) xs, map (\y -> y * 1) ys)
