-- A loop takes over the block of its initial value when that value dies
-- at the loop. It must not do so for a value that does not own its
-- block (a row of another array, as a map's parameter is), nor for a
-- name free in the body being lowered: its last use there is not its
-- last use when that body repeats (a map's function, a loop's body) or
-- when the enclosing body uses it later (an `if` branch). Taking the
-- block emptied the array for the next iteration of the map (a null
-- read in the C backend) or for the statements after the `if`.

-- Each row of a fresh matrix starts a loop updating a copy of it in
-- place (a map's parameter is not consumable, so the source copies; the
-- loop still starts from a row when AD leaves it so, below); the map runs
-- sequentially (narrow), so the matrix lives in the same scope.
-- ==
-- entry: rows_in_place
-- input { 3i64 4i64 }
-- output { [[1, 2, 3, 4], [3, 4, 5, 6], [5, 6, 7, 8]] }
entry rows_in_place (k: i64) (n: i64) : [k][n]i32 =
  let m = tabulate k (\r -> replicate n (i32.i64 r))
  in map (\row -> loop acc = copy row for i < n do acc with [i] = acc[i] * 2 + 1 + i32.i64 i) m

-- The same pattern as reverse-mode AD leaves it: the adjoint loop of an
-- in-place loop starts from each row of a matrix of seeds.
def cube_each [n] (xs: [n]i32) : [n]i32 =
  loop ys = copy xs for i < n do ys with [i] = ys[i] * ys[i] * ys[i]

-- ==
-- entry: cube_jacobian
-- input { [1, 2, -3] }
-- output { [[3, 0, 0], [0, 12, 0], [0, 0, 27]] }
entry cube_jacobian [n] (xs: [n]i32) : [n][n]i32 =
  let seeds = tabulate n (\i -> replicate n 0 with [i] = 1)
  in map (\s -> vjp cube_each xs s) seeds

-- A loop in a map's function starting from an array bound outside it.
-- ==
-- entry: free_in_map
-- input { [1, 2, 3] }
-- output { [2, 6, 16] }
entry free_in_map (xs: []i32) : []i32 =
  let a = map (+ 1) xs
  in map (\j -> let s = loop acc = a for _i < j do map (* 2) acc in s[j]) (indices xs)

-- A loop in an `if` branch starting from an array used after the `if`.
-- ==
-- entry: free_in_branch
-- input { [1, 2, 3] }
-- output { [8, 12, 16] 3 }
-- input { [-1, 2, 3] }
-- output { [-1, 2, 3] 3 }
entry free_in_branch (xs: []i32) : ([]i32, i32) =
  let a = map (+ 1) xs
  let r = if xs[0] > 0 then (loop acc = a for _i < 2 do map (* 2) acc) else xs
  in (r, a[1])
