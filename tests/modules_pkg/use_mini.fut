-- A package imported the way `futhark pkg` installs it: the path starts
-- with `lib/github.com/owner/repo/` and is resolved relative to this file;
-- the package imports a file of its own by a relative path.
-- ==
-- entry: dot_product
-- input { [1f64, 2f64, 3f64] [4f64, 5f64, 6f64] } output { 32f64 }
-- input { empty([0]f64) empty([0]f64) } output { 0f64 }
-- entry: normalised
-- input { [1f64, 3f64, 4f64] } output { [0.125f64, 0.375f64, 0.5f64] }
-- entry: moments
-- input { [1f64, 2f64, 3f64, 6f64] } output { 3f64 3.5f64 }

import "lib/github.com/parad-tests/mini/mini"

entry dot_product [n] (xs: [n]f64) (ys: [n]f64) : f64 = dot xs ys

entry normalised (xs: []f64) : []f64 = normalise xs

entry moments (xs: []f64) : (f64, f64) = mean_var xs
