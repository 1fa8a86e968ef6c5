-- The opencl backend's kernels: every entry point here runs on the
-- device (crates/cli/tests/gpu.rs checks that), and its results are
-- checked on every backend against the same expected values.

-- A map: one thread per element.
-- ==
-- entry: scale
-- input { 2.5f32 [1f32, -2f32, 4f32] } output { [2.5f32, -5f32, 10f32] }
-- input { 1f32 empty([0]f32) } output { empty([0]f32) }
entry scale (a: f32) (xs: []f32) = map (* a) xs

-- A gather whose index check fails in one thread: the error names the
-- index and the shape.
-- ==
-- entry: gather
-- input { [2i64, 0i64] [10i32, 20i32, 30i32] } output { [30i32, 10i32] }
-- input { [1i64, 7i64] [10i32, 20i32, 30i32] }
-- error: Index \[7\] out of bounds for array of shape \[3\]
entry gather (is: []i64) (xs: []i32) = map (\i -> xs[i]) is

-- Reductions: chunks in threads, then the host combines them.
-- ==
-- entry: sum_max
-- input { [3i64, -8i64, 5i64, 1i64] } output { 1i64 5i64 }
-- input { empty([0]i64) } output { 0i64 -9223372036854775808i64 }
entry sum_max (xs: []i64) = (i64.sum xs, i64.maximum xs)

-- A scan.
-- ==
-- entry: prefix
-- input { [1f64, 2f64, 3f64, 4f64] } output { [1f64, 3f64, 6f64, 10f64] }
entry prefix (xs: []f64) = scan (+) 0 xs

-- Nested parallelism, sequential in each thread; a bool argument.
-- ==
-- entry: rows
-- input { true [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [3i32, 7i32, 11i32] }
-- input { false [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [2i32, 12i32, 30i32] }
entry rows (add: bool) (xss: [][]i32) =
  map (\xs -> if add then i32.sum xs else i32.product xs) xss

-- A histogram, and a scatter (distinct indices; one out of range is
-- ignored).
-- ==
-- entry: hist_scatter
-- input { [0i64, 2i64, 2i64, 1i64, 2i64] [2i64, 0i64, 9i64] [1f32, 2f32, 3f32, 4f32, 5f32] }
-- output { [1f32, 4f32, 10f32] [2f32, 0f32, 1f32] }
entry hist_scatter [n] [m] (is: [n]i64) (js: [m]i64) (vs: [n]f32) =
  (hist (+) 0 3 is vs, scatter (replicate 3 0) js (take m vs))

-- A sequential loop of parallel maps on the host.
-- ==
-- entry: iterate
-- input { 3i32 [1f64, 2f64] } output { [8f64, 16f64] }
entry iterate (n: i32) (xs: []f64) = loop xs for _i < n do map (* 2) xs

-- Reverse AD of a map: the adjoint is a kernel too.
-- ==
-- entry: grad
-- input { [1f64, 2f64, 3f64] } output { [2f64, 4f64, 6f64] }
entry grad [n] (xs: [n]f64) = vjp (\ys -> map (\y -> y * y) ys) xs (replicate n 1)
