-- Comparison operators: unsigned order for unsigned types, signed order
-- for signed ones, NaN compares false except with !=.
-- ==
-- entry: cmp_u32
-- input { 4294967295u32 1u32 } output { false false false true }
-- input { 3u32 3u32 } output { false true true false }
-- entry: cmp_i8
-- input { -1i8 1i8 } output { true false false false }
-- input { 127i8 -128i8 } output { false true false true }
-- entry: cmp_f64
-- input { f64.nan 1.0f64 } output { false false false true false }
-- input { -0.0f64 0.0f64 } output { false true true false true }
-- input { 1.0f64 f64.inf } output { true false false true true }

entry cmp_u32 (a: u32) (b: u32) : (bool, bool, bool, bool) = (a < b, a <= b, a == b, a != b)

entry cmp_i8 (a: i8) (b: i8) : (bool, bool, bool, bool) = (a < b, a >= b, a == b, a > b)

entry cmp_f64 (a: f64) (b: f64) : (bool, bool, bool, bool, bool) =
  (a < b, a >= b, a == b, a != b, a == a)
