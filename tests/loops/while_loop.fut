-- while loops: Euclid's algorithm, integer square root by bisection, and
-- halving until below a threshold (zero iterations when already below).
-- ==
-- entry: gcd
-- input { 48i64 18i64 } output { 6i64 }
-- input { 17i64 5i64 } output { 1i64 }
-- input { 7i64 0i64 } output { 7i64 }
-- entry: isqrt
-- input { 0i64 } output { 0i64 }
-- input { 15i64 } output { 3i64 }
-- input { 16i64 } output { 4i64 }
-- input { 1000000i64 } output { 1000i64 }
-- entry: halvings
-- input { 100.0f64 1.0f64 } output { 0.78125f64 7i32 }
-- input { 0.5f64 1.0f64 } output { 0.5f64 0i32 }

entry gcd (a: i64) (b: i64) : i64 =
  let (x, _) = loop (x, y) = (a, b) while y != 0 do (y, x % y)
  in x

entry isqrt (n: i64) : i64 =
  let (lo, _) =
    loop (lo, hi) = (0, n + 1) while hi - lo > 1 do
      let mid = (lo + hi) / 2
      in if mid * mid <= n then (mid, hi) else (lo, mid)
  in lo

entry halvings (x: f64) (limit: f64) : (f64, i32) =
  loop (v, k) = (x, 0) while v >= limit do (v / 2.0, k + 1)
