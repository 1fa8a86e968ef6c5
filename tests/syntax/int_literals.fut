-- Integer literals with every type suffix, in decimal, hexadecimal and
-- binary notation, with underscores between digits.
-- ==
-- input { 0i32 } output { -5i8 127i16 1000000i32 0i64 255u8 65535u16 4000000000u32 244837814042624u64 }
-- input { 3i32 } output { -2i8 124i16 1000003i32 30i64 252u8 6553u16 4000000003u32 244837814042627u64 }
-- input { -2i32 } output { -7i8 129i16 999998i32 -20i64 1u8 13107u16 3999999998u32 244838905675774u64 }

def main (x: i32) : (i8, i16, i32, i64, u8, u16, u32, u64) =
  ( -5i8 + i8.i32 x
  , 0x7fi16 - i16.i32 x
  , 1_000_000 + x
  , 0b1010i64 * i64.i32 x
  , 255u8 - u8.i32 x
  , 0xFF_FFu16 / u16.i32 (x * x + 1)
  , 4_000_000_000u32 + u32.i32 x
  , 0xDEAD_BEEF_0000u64 | u64.i32 x
  )
