-- Floating-point literals: suffixes, exponents, hexadecimal floats, f16.
-- ==
-- input { 2.0f32 0.5f64 } output { 3.0f32 0.5025f64 5.0f32 500.0f64 3.25f32 500.625f64 }
-- input { -0.25f32 3.0f64 } output { -0.375f32 3.0025f64 2.75f32 3000.0f64 1.0f32 3001.25f64 }

def main (x: f32) (y: f64) : (f32, f64, f32, f64, f32, f64) =
  ( 1.5f32 * x
  , 2.5e-3 + y
  , 0x1.8p1f32 + x
  , 1E3f64 * y
  , f32.f16 1.25f16 + x
  , 0.5 + 1_000.25 * y
  )
