-- A first parad program: the dot product of two vectors and a small
-- numerical kernel built from map, reduce and scan.
--
--   echo '[1.0, 2.0, 3.0] [4.0, 5.0, 6.0]' | parad run examples/dot.fut

def dot [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map2 (*) xs ys)

-- The dot product, the running sums of the element-wise products, and the
-- Euclidean norm of `xs`.
entry main [n] (xs: [n]f64) (ys: [n]f64) : (f64, [n]f64, f64) =
  (dot xs ys, scan (+) 0 (map2 (*) xs ys), f64.sqrt (dot xs xs))

-- ==
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] }
-- output { 32.0 [4.0, 14.0, 32.0] 3.7416573867739413 }
