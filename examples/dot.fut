-- A first parad program: the dot product of two vectors, a small
-- numerical kernel built from map, reduce and scan, and derivatives.
--
--   echo '[1.0, 2.0, 3.0] [4.0, 5.0, 6.0]' | parad run examples/dot.fut

def dot [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map2 (*) xs ys)

def norm [n] (xs: [n]f64) : f64 = f64.sqrt (dot xs xs)

-- The dot product, the running sums of the element-wise products, the
-- Euclidean norm of `xs`, its gradient xs/|xs| (reverse mode) and its
-- derivative in the direction `ys` (forward mode).
entry main [n] (xs: [n]f64) (ys: [n]f64) : (f64, [n]f64, f64, [n]f64, f64) =
  (dot xs ys, scan (+) 0 (map2 (*) xs ys), norm xs, vjp norm xs 1, jvp norm xs ys)

-- ==
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] }
-- output { 32.0 [4.0, 14.0, 32.0] 3.7416573867739413
--          [0.2672612419124244, 0.5345224838248488, 0.8017837257372732] 8.55235974119758 }
