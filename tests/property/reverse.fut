-- Property-based tests: `parad test` makes random arguments for each
-- property (an entry point `t -> bool` marked `#[prop]`), shrinks any
-- argument that makes it false and reports it. Arguments of every kind
-- the built-in generator makes (arrays, tuples of sized arrays,
-- records), a generator of our own with a size, and a shrinker of our
-- own. Every property here holds.
-- ==
-- property: reverse_twice reverse_concat distance_symmetric scan_last_is_sum max_bounds

#[prop]
entry reverse_twice (xs: []i32) : bool =
  and (map2 (==) (reverse (reverse xs)) xs)

#[prop]
entry reverse_concat [n] [m] (p: ([n]i32, [m]i32)) : bool =
  let whole = reverse (p.0 ++ p.1)
  let parts = reverse p.1 ++ reverse p.0 :> [n + m]i32
  in and (map2 (==) whole parts)

#[prop]
entry distance_symmetric (r: {x: i32, y: i32}) : bool =
  i32.abs (r.x - r.y) == i32.abs (r.y - r.x)

entry counting (size: i64) (seed: u64) : []i64 =
  map (\i -> (i64.u64 (seed % 1000) + i) % 97) (iota size)

#[prop(gen(counting), size(30))]
entry scan_last_is_sum (xs: []i64) : bool =
  let n = length xs
  in n == 0 || (scan (+) 0 xs)[n - 1] == reduce (+) 0 xs

entry drop_one (xs: []i32) (r: u64) : []i32 =
  let n = length xs
  in if n == 0 then xs else take (i64.u64 (r % u64.i64 n)) xs ++ drop (i64.u64 (r % u64.i64 n) + 1) xs

#[prop(shrink(drop_one))]
entry max_bounds (xs: []i32) : bool =
  all (<= i32.maximum xs) xs
