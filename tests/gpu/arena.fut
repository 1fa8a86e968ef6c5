-- Parallel loops whose bodies need memory of their own: on the opencl
-- backend each thread takes it from its share of an arena that the host
-- allocates before the launch (crates/cli/tests/gpu.rs checks that every
-- entry point here runs on the device).

-- A temporary array per thread, reversed and scanned.
-- ==
-- entry: temp
-- input { 4i64 [0i64, 10i64, 100i64] }
-- output { [6i64, 46i64, 406i64] }
entry temp (n: i64) (xs: []i64) =
  map (\x -> let ys = map (+ x) (iota n) in reverse ys |> scan (+) 0 |> last) xs

-- A loop in each thread that makes a new array per iteration (blocks
-- reused in turn) and updates one in place.
-- ==
-- entry: steps
-- input { 3i32 [[1f64, 2f64], [3f64, 4f64]] }
-- output { [[8f64, 17f64], [24f64, 33f64]] }
entry steps (k: i32) (xss: [][]f64) =
  map (\xs ->
         let ys = loop ys = copy xs for _i < k do map (* 2) ys
         let ys[1] = ys[1] + 1
         in ys)
      xss

-- Many threads, each with a row of its own: more iterations than the
-- threads that the arena allows run in turn.
-- ==
-- entry: many
-- input { 100000i64 3i64 } output { 1350000i64 }
entry many (n: i64) (m: i64) =
  i64.sum (map (\i -> let row = replicate m (i % 10) in i64.sum row) (iota n))
