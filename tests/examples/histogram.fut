-- Histogram of data in k equal-width bins over [lo, hi): counts, sums of
-- the values per bin, and a density normalised to integrate to one.
-- Values outside the range are dropped.
-- ==
-- entry: bin_counts
-- input { 4i64 0.0f64 2.0f64 [0.1f64, 0.6f64, 0.7f64, 1.9f64, 2.0f64, -0.1f64, 1.5f64] } output { [1i64, 2i64, 0i64, 2i64] }
-- entry: bin_sums
-- input { 2i64 0.0f64 10.0f64 [1.0f64, 2.0f64, 7.0f64, 12.0f64] } output { [3.0f64, 7.0f64] }
-- entry: density
-- input { 4i64 0.0f64 2.0f64 [0.1f64, 0.6f64, 0.7f64, 1.9f64] } output { [0.5f64, 1.0f64, 0.0f64, 0.5f64] }

def bin_of (k: i64) (lo: f64) (hi: f64) (x: f64) : i64 =
  if x < lo || x >= hi then -1 else i64.f64 ((x - lo) / (hi - lo) * f64.i64 k)

entry bin_counts [n] (k: i64) (lo: f64) (hi: f64) (xs: [n]f64) : []i64 =
  hist (+) 0 k (map (bin_of k lo hi) xs) (replicate n 1)

entry bin_sums (k: i64) (lo: f64) (hi: f64) (xs: []f64) : []f64 =
  hist (+) 0.0 k (map (bin_of k lo hi) xs) xs

entry density [n] (k: i64) (lo: f64) (hi: f64) (xs: [n]f64) : []f64 =
  let counts = hist (+) 0 k (map (bin_of k lo hi) xs) (replicate n 1i64)
  let total = f64.i64 (i64.sum counts)
  let width = (hi - lo) / f64.i64 k
  in map (\c -> f64.i64 c / (total * width)) counts
