-- A sequential loop inside map: Collatz step counts and integer powers.
-- ==
-- entry: collatz
-- input { [1i32, 6i32, 7i32, 27i32] } output { [0i32, 8i32, 16i32, 111i32] }
-- entry: powers
-- input { [2i64, 3i64, -1i64] [10i64, 3i64, 5i64] } output { [1024i64, 27i64, -1i64] }

entry collatz (xs: []i32) : []i32 =
  map (\x ->
         let (_, steps) =
           loop (v, s) = (x, 0) while v != 1 do
             if v % 2 == 0 then (v / 2, s + 1) else (3 * v + 1, s + 1)
         in steps)
      xs

entry powers [n] (bs: [n]i64) (es: [n]i64) : []i64 =
  map2 (\b e -> loop acc = 1 for _i < e do acc * b) bs es
