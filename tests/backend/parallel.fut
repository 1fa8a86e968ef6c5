-- Wide SOACs, so that the C backend takes its parallel paths (chunked
-- reductions, three-phase scans, sub-histograms and atomic histograms,
-- parallel scatter, per-thread and atomic accumulators); the expected
-- values are closed forms.

-- ==
-- entry: sum_iota
-- input { 200000i64 } output { 19999900000i64 }
-- input { 0i64 } output { 0i64 }
entry sum_iota (n: i64) : i64 = reduce (+) 0 (iota n)

-- A non-commutative operator: composition of affine maps x -> a*x + b,
-- over i32 with wrapping; the reduction order must be kept.
-- ==
-- entry: affine
-- input { 100000i64 } output { 1i32 100000i32 }
entry affine (n: i64) : (i32, i32) =
  let op (a1: i32, b1: i32) (a2: i32, b2: i32) = (a1 * a2, a2 * b1 + b2)
  in reduce op (1, 0) (map (\_ -> (1i32, 1i32)) (iota n))

-- ==
-- entry: scan_sum
-- input { 100000i64 } output { 4999950000i64 99999i64 }
entry scan_sum (n: i64) : (i64, i64) =
  let s = scan (+) 0 (iota n)
  in (s[n - 1], s[n - 1] - s[n - 2])

-- A non-commutative scan (the affine maps again): the running composition.
-- ==
-- entry: scan_affine
-- input { 100000i64 } output { 2i32 -1i32 163840i32 }
entry scan_affine (n: i64) : (i32, i32, i32) =
  let op (a1: i32, b1: i32) (a2: i32, b2: i32) = (a1 * a2, a2 * b1 + b2)
  let (as, bs) = unzip (scan op (1, 0) (map (\i -> if i % 2 == 0 then (2i32, 0i32) else (1i32, -1i32)) (iota n)))
  in (as[1], bs[1], as[31] - as[29] + bs[0] + as[32])

-- ==
-- entry: hist_small
-- input { 300000i64 } output { [30000i64, 30000i64, 30000i64, 30000i64, 30000i64, 30000i64, 30000i64, 30000i64, 30000i64, 30000i64] }
entry hist_small (n: i64) : [10]i64 =
  hist (+) 0 10 (map (% 10) (iota n)) (replicate n 1)

-- A histogram as large as its input, with `max` (a compare-and-swap
-- loop when atomic).
-- ==
-- entry: hist_large_max
-- input { 200000i64 } output { 199999i64 100000i64 }
entry hist_large_max (n: i64) : (i64, i64) =
  let h = hist i64.max (-1) n (map (\i -> i / 2) (iota n)) (iota n)
  in (h[n / 2 - 1], i64.sum (map (\x -> if x < 0 then 1 else 0) h))

-- ==
-- entry: scatter_wide
-- input { 100000i64 } output { 99999i64 0i64 4999950000i64 }
entry scatter_wide (n: i64) : (i64, i64, i64) =
  let xs = scatter (replicate n 0) (map (\i -> n - 1 - i) (iota n)) (iota n)
  in (xs[0], xs[n - 1], i64.sum xs)

-- The gradient of a sum of squares over a wide input: the adjoint of a
-- free array read in a map goes through an accumulator.
-- ==
-- entry: grad_gather
-- input { 100000i64 } output { 40000.0 0.0 }
entry grad_gather (n: i64) : (f64, f64) =
  let f (ws: [10]f64) = f64.sum (map (\i -> ws[i % 10] * ws[i % 10]) (iota n))
  let g = vjp f (map f64.i64 (iota 10)) 1
  in (g[2] / 1.0, g[0])

-- A wide reduction of rows (an array-valued operator).
-- ==
-- entry: column_sums
-- input { 50000i64 } output { [50000i64, 100000i64, 150000i64] }
entry column_sums (n: i64) : [3]i64 =
  reduce (map2 (+)) (replicate 3 0) (map (\_ -> [1, 2, 3]) (iota n))

-- An outer map narrower than the threads over long inner reductions: the
-- inner level runs in parallel.
-- ==
-- entry: narrow_outer
-- input { 200000i64 } output { [19999900000i64, 39999800000i64] }
entry narrow_outer (n: i64) : [2]i64 =
  map (\k -> reduce (+) 0 (map (\i -> k * i) (iota n))) [1, 2]
