-- Reverse-mode AD of scan (tests/tools/ref_ad.py).

-- inclusive prefix sums: the adjoint is the reversed prefix sum of ybar
entry prefix_sums [n] (xs: [n]f64) (ybar: [n]f64) : [n]f64 =
  vjp (scan (+) 0) xs ybar

-- ==
-- entry: prefix_sums
-- input { [1.0, 2.0, 3.0, 4.0] [1.0, 0.0, 2.0, -1.0] } output { [2.0f64, 1.0f64, 1.0f64, -1.0f64] }
