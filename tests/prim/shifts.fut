-- Shifts: `<<` discards high bits, `>>` is arithmetic on signed types and
-- logical on unsigned types.  Shift amounts stay below the bit width.
-- ==
-- entry: sh_i32
-- input { 1i32 31i32 } output { -2147483648i32 0i32 }
-- input { -16i32 2i32 } output { -64i32 -4i32 }
-- input { 2147483647i32 4i32 } output { -16i32 134217727i32 }
-- input { 5i32 0i32 } output { 5i32 5i32 }
-- entry: sh_u32
-- input { 2147483648u32 31u32 } output { 0u32 1u32 }
-- input { 4294967295u32 4u32 } output { 4294967280u32 268435455u32 }
-- entry: sh_i8
-- input { -128i8 7i8 } output { 0i8 -1i8 }
-- input { 3i8 6i8 } output { -64i8 0i8 }
-- entry: sh_u64
-- input { 1u64 63u64 } output { 9223372036854775808u64 0u64 }
-- input { 18446744073709551615u64 60u64 } output { 17293822569102704640u64 15u64 }

entry sh_i32 (x: i32) (s: i32) : (i32, i32) = (x << s, x >> s)

entry sh_u32 (x: u32) (s: u32) : (u32, u32) = (x << s, x >> s)

entry sh_i8 (x: i8) (s: i8) : (i8, i8) = (x << s, x >> s)

entry sh_u64 (x: u64) (s: u64) : (u64, u64) = (x << s, x >> s)
