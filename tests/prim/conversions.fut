-- Conversions between numeric types.  Float-to-integer conversion
-- truncates towards zero; narrowing integer conversions keep the low bits;
-- widening sign-extends only when both types are signed (a signed value
-- converted to an unsigned type, or vice versa, is zero-extended).
-- ==
-- entry: f_to_i
-- input { 3.7f64 } output { 3i32 3i64 3i8 3i16 }
-- input { -3.7f64 } output { -3i32 -3i64 -3i8 -3i16 }
-- input { -0.5f64 } output { 0i32 0i64 0i8 0i16 }
-- input { 127.99f64 } output { 127i32 127i64 127i8 127i16 }
-- entry: f_to_u
-- input { 200.9f32 } output { 200u8 200u32 200u64 }
-- input { 0.25f32 } output { 0u8 0u32 0u64 }
-- entry: i_to_f
-- input { 16777217i64 } output { 16777216.0f32 16777217.0f64 16777216.0f32 }
-- input { 9007199254740993i64 } output { 9.007199e+15f32 9007199254740992.0f64 1.0f32 }
-- input { -3i64 } output { -3.0f32 -3.0f64 -3.0f32 }
-- entry: int_int
-- input { -1i32 } output { 255u8 -1i8 -1i64 4294967295u32 4294967295u64 -1i16 }
-- input { 300i32 } output { 44u8 44i8 300i64 300u32 300u64 300i16 }
-- input { -129i32 } output { 127u8 127i8 -129i64 4294967167u32 4294967167u64 -129i16 }
-- entry: from_unsigned
-- input { 255u8 4294967295u32 } output { 255i32 -1i8 4294967295i64 4294967295u64 4294967295.0f64 }
-- input { 7u8 2147483648u32 } output { 7i32 7i8 2147483648i64 2147483648u64 2147483648.0f64 }
-- entry: floats
-- input { 0.1f64 } output { 0.1f32 0.10000000149011612f64 }
-- input { 1e40f64 } output { f32.inf f64.inf }
-- entry: bools
-- input { true 0i32 } output { 1i32 1.0f32 false 1u8 }
-- input { false -5i32 } output { 0i32 0.0f32 true 0u8 }

entry f_to_i (x: f64) : (i32, i64, i8, i16) = (i32.f64 x, i64.f64 x, i8.f64 x, i16.f64 x)

entry f_to_u (x: f32) : (u8, u32, u64) = (u8.f32 x, u32.f32 x, u64.f32 x)

entry i_to_f (x: i64) : (f32, f64, f32) = (f32.i64 x, f64.i64 x, f32.i32 (i32.i64 x))

entry int_int (x: i32) : (u8, i8, i64, u32, u64, i16) =
  (u8.i32 x, i8.i32 x, i64.i32 x, u32.i32 x, u64.i32 x, i16.i32 x)

entry from_unsigned (a: u8) (b: u32) : (i32, i8, i64, u64, f64) =
  (i32.u8 a, i8.u8 a, i64.u32 b, u64.u32 b, f64.u32 b)

entry floats (x: f64) : (f32, f64) = (f32.f64 x, f64.f32 (f32.f64 x))

entry bools (b: bool) (x: i32) : (i32, f32, bool, u8) = (i32.bool b, f32.bool b, bool.i32 x, u8.bool b)
