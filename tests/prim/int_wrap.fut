-- Wrap-around (two's complement) arithmetic: + - * and negation for
-- every integer type.
-- ==
-- entry: ops_i8
-- input { 100i8 100i8 } output { -56i8 0i8 16i8 -100i8 }
-- input { -128i8 1i8 } output { -127i8 127i8 -128i8 -128i8 }
-- input { -7i8 19i8 } output { 12i8 -26i8 123i8 7i8 }
-- entry: ops_i16
-- input { 30000i16 10000i16 } output { -25536i16 20000i16 -23808i16 -30000i16 }
-- input { -32768i16 -1i16 } output { 32767i16 -32767i16 -32768i16 -32768i16 }
-- entry: ops_i32
-- input { 2147483647i32 1i32 } output { -2147483648i32 2147483646i32 2147483647i32 -2147483647i32 }
-- input { 123456789i32 1000i32 } output { 123457789i32 123455789i32 -1097262584i32 -123456789i32 }
-- input { -2147483648i32 -1i32 } output { 2147483647i32 -2147483647i32 -2147483648i32 -2147483648i32 }
-- entry: ops_i64
-- input { 9223372036854775807i64 2i64 } output { -9223372036854775807i64 9223372036854775805i64 -2i64 -9223372036854775807i64 }
-- input { -9223372036854775808i64 3i64 } output { -9223372036854775805i64 9223372036854775805i64 -9223372036854775808i64 -9223372036854775808i64 }
-- entry: ops_u8
-- input { 200u8 100u8 } output { 44u8 100u8 32u8 56u8 }
-- input { 3u8 5u8 } output { 8u8 254u8 15u8 253u8 }
-- entry: ops_u16
-- input { 65535u16 2u16 } output { 1u16 65533u16 65534u16 1u16 }
-- input { 1u16 2u16 } output { 3u16 65535u16 2u16 65535u16 }
-- entry: ops_u32
-- input { 4294967295u32 4294967295u32 } output { 4294967294u32 0u32 1u32 1u32 }
-- input { 0u32 1u32 } output { 1u32 4294967295u32 0u32 0u32 }
-- entry: ops_u64
-- input { 18446744073709551615u64 3u64 } output { 2u64 18446744073709551612u64 18446744073709551613u64 1u64 }
-- input { 2u64 5u64 } output { 7u64 18446744073709551613u64 10u64 18446744073709551614u64 }

entry ops_i8 (a: i8) (b: i8) : (i8, i8, i8, i8) =
  (a + b, a - b, a * b, -a)

entry ops_i16 (a: i16) (b: i16) : (i16, i16, i16, i16) =
  (a + b, a - b, a * b, -a)

entry ops_i32 (a: i32) (b: i32) : (i32, i32, i32, i32) =
  (a + b, a - b, a * b, -a)

entry ops_i64 (a: i64) (b: i64) : (i64, i64, i64, i64) =
  (a + b, a - b, a * b, -a)

entry ops_u8 (a: u8) (b: u8) : (u8, u8, u8, u8) =
  (a + b, a - b, a * b, -a)

entry ops_u16 (a: u16) (b: u16) : (u16, u16, u16, u16) =
  (a + b, a - b, a * b, -a)

entry ops_u32 (a: u32) (b: u32) : (u32, u32, u32, u32) =
  (a + b, a - b, a * b, -a)

entry ops_u64 (a: u64) (b: u64) : (u64, u64, u64, u64) =
  (a + b, a - b, a * b, -a)
