-- Programs the uniqueness rules accept: in-place updates of unique
-- parameters, of fresh local arrays, in loops that consume their
-- parameters, through tuples whose other components stay usable, after a
-- branch that consumed in one case, and with results inferred fresh.
-- ==
-- entry: unique_param
-- input { [1i32, 2i32, 3i32] } output { [1i32, 20i32, 3i32] }
-- entry: fresh_local
-- input { 4i64 } output { [0i64, 1i64, 42i64, 3i64] 42i64 }
-- entry: loop_consumes
-- input { [5i64, 6i64, 7i64] } output { [0i64, 1i64, 2i64] [5i64, 6i64, 7i64] }
-- entry: tuple_parts
-- input { 3i64 } output { [0i64, 1i64, 2i64] [9i64, 1i64, 2i64] }
-- entry: branch
-- input { true 3i64 } output { [7i64, 1i64, 2i64] }
-- input { false 3i64 } output { [0i64, 1i64, 2i64] }
-- entry: chained
-- input { [1i32, 2i32, 3i32] } output { [10i32, 20i32, 3i32] }

entry unique_param (xs: *[]i32) : *[]i32 = xs with [1] = 20

entry fresh_local (n: i64) : ([]i64, i64) =
  let a = iota n
  let b = a
  let b[2] = 42
  in (b, b[2])

-- The loop consumes a copy; the parameter itself stays usable.
entry loop_consumes (xs: []i64) : ([]i64, []i64) =
  let ys = loop acc = copy xs for i < length xs do acc with [i] = i
  in (ys, xs)

entry tuple_parts (n: i64) : ([]i64, []i64) =
  let (a, b) = (iota n, iota n)
  let b[0] = 9
  in (a, b)

def fresh (n: i64) = iota n

entry branch (c: bool) (n: i64) : []i64 =
  let a = fresh n
  let r = if c then (let a[0] = 7 in a) else fresh n
  in r

def set (i: i64) (v: i32) (xs: *[]i32) : *[]i32 = xs with [i] = v

entry chained (xs: *[]i32) : []i32 = xs |> set 0 10 |> set 1 20
