-- Rounding, absolute value, sign, bit patterns and reductions of floats.
-- (Exact halves are avoided: `round` rounds them to even.)
-- ==
-- entry: rounding
-- input { 2.7f64 } output { 2.0f64 3.0f64 3.0f64 2.0f64 2.7f64 1.0f64 }
-- input { -2.3f64 } output { -3.0f64 -2.0f64 -2.0f64 -2.0f64 2.3f64 -1.0f64 }
-- input { -0.6f64 } output { -1.0f64 0.0f64 -1.0f64 0.0f64 0.6f64 -1.0f64 }
-- input { 0.0f64 } output { 0.0f64 0.0f64 0.0f64 0.0f64 0.0f64 0.0f64 }
-- entry: bits32
-- input { 1.0f32 } output { 1065353216u32 1.0000001f32 }
-- input { -2.5f32 } output { 3223322624u32 -2.5000002f32 }
-- entry: bits64
-- input { -2.0f64 } output { 13835058055282163712u64 -1.9999999999999998f64 }
-- input { 0.1f64 } output { 4591870180066957722u64 0.09999999999999999f64 }
-- entry: reductions
-- input { [1.5f32, -2.0f32, 4.25f32] } output { 3.75f32 -12.75f32 4.25f32 -2.0f32 }
-- input { empty([0]f32) } output { 0.0f32 1.0f32 -f32.inf f32.inf }

entry rounding (x: f64) : (f64, f64, f64, f64, f64, f64) =
  (f64.floor x, f64.ceil x, f64.round x, f64.trunc x, f64.abs x, f64.sgn x)

entry bits32 (x: f32) : (u32, f32) = (f32.to_bits x, f32.from_bits (f32.to_bits x + 1))

entry bits64 (x: f64) : (u64, f64) = (f64.to_bits x, f64.from_bits (f64.to_bits x - 1))

entry reductions (xs: []f32) : (f32, f32, f32, f32) =
  (f32.sum xs, f32.product xs, f32.maximum xs, f32.minimum xs)
