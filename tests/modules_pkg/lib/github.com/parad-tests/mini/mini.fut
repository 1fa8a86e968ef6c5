-- A small package in the `futhark pkg` layout, used by the tests in
-- tests/modules_pkg: plain functions, one of them from a file of the
-- package that this one imports by a relative path.

import "stats"

-- The dot product of two vectors of the same length.
def dot [n] (xs: [n]f64) (ys: [n]f64) : f64 = f64.sum (map2 (*) xs ys)

-- Every element divided by the sum of all.
def normalise [n] (xs: [n]f64) : [n]f64 =
  let s = f64.sum xs
  in map (/ s) xs

-- The arithmetic mean and the (population) variance.
def mean_var [n] (xs: [n]f64) : (f64, f64) =
  let m = mean xs
  in (m, mean (map (\x -> (x - m) * (x - m)) xs))
