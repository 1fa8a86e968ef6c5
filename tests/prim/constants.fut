-- Constants of the numeric modules (for floats, highest and lowest are
-- the infinities).
-- ==
-- input { 1i32 } output { 2147483647i32 -2147483648i32 255u8 -9223372036854775808i64 3.141592653589793f64 2.7182817f32 true f32.inf -127i8 2.220446049250313e-16f64 }
-- input { -1i32 } output { -2147483647i32 -2147483648i32 255u8 -9223372036854775808i64 -3.141592653589793f64 2.7182817f32 true f32.inf 127i8 2.220446049250313e-16f64 }

def main (k: i32) : (i32, i32, u8, i64, f64, f32, bool, f32, i8, f64) =
  ( i32.highest - (k - 1)
  , i32.lowest
  , u8.highest
  , i64.lowest
  , f64.pi * f64.i32 k
  , f32.e
  , f64.isinf f64.inf
  , f32.highest
  , i8.lowest + i8.i32 k
  , f64.epsilon
  )
