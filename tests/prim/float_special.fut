-- IEEE special values: infinities and NaN from division, propagation
-- through arithmetic, the isnan/isinf predicates, comparisons with NaN,
-- overflow to infinity in f32 and signed zero.
-- ==
-- entry: divs
-- input { 0.0f64 } output { f64.inf -f64.inf f64.nan }
-- input { 4.0f64 } output { 0.25f64 -0.25f64 1.0f64 }
-- input { f64.inf } output { 0.0f64 -0.0f64 f64.nan }
-- entry: preds
-- input { f32.nan } output { true false false false }
-- input { f32.inf } output { false true true false }
-- input { -f32.inf } output { false true true true }
-- input { 1.0f32 } output { false false true true }
-- entry: arith
-- input { f64.inf } output { f64.nan f64.nan f64.inf true }
-- input { -f64.inf } output { f64.nan f64.nan f64.nan true }
-- input { 2.0f64 } output { 0.0f64 0.0f64 f64.inf true }
-- entry: overflow
-- input { 1e30f32 } output { f32.inf 1.0000000300949327e+60f64 }
-- input { 3.0f32 } output { 9.0f32 9.0f64 }
-- entry: neg_zero
-- input { 0.0f64 } output { -f64.inf true }
-- input { 2.0f64 } output { -0.25f64 false }

entry divs (x: f64) : (f64, f64, f64) = (1.0 / x, -1.0 / x, x / x)

entry preds (x: f32) : (bool, bool, bool, bool) =
  (f32.isnan x, f32.isinf x, x == x, x < f32.inf)

entry arith (x: f64) : (f64, f64, f64, bool) =
  (x - x, x * 0.0, f64.inf + x, f64.isnan (x + f64.nan))

entry overflow (x: f32) : (f32, f64) = (x * x, f64.f32 x * f64.f32 x)

entry neg_zero (x: f64) : (f64, bool) = (1.0 / (-x * x), -x == x)
