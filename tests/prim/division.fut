-- Integer division and remainder with negative operands: `/` and `%`
-- round towards negative infinity, `//` and `%%` towards zero.
-- ==
-- entry: div_i32
-- input { 7i32 2i32 } output { 3i32 1i32 3i32 1i32 }
-- input { -7i32 2i32 } output { -4i32 1i32 -3i32 -1i32 }
-- input { 7i32 -2i32 } output { -4i32 -1i32 -3i32 1i32 }
-- input { -7i32 -2i32 } output { 3i32 -1i32 3i32 -1i32 }
-- input { 6i32 -3i32 } output { -2i32 0i32 -2i32 0i32 }
-- input { 0i32 5i32 } output { 0i32 0i32 0i32 0i32 }
-- input { -1i32 1000i32 } output { -1i32 999i32 0i32 -1i32 }
-- entry: div_i64
-- input { -9000000000i64 7i64 } output { -1285714286i64 2i64 -1285714285i64 -5i64 }
-- input { 9000000000i64 -7i64 } output { -1285714286i64 -2i64 -1285714285i64 5i64 }
-- entry: div_i8
-- input { -128i8 3i8 } output { -43i8 1i8 -42i8 -2i8 }
-- input { 127i8 -10i8 } output { -13i8 -3i8 -12i8 7i8 }
-- entry: div_u32
-- input { 4294967295u32 10u32 } output { 429496729u32 5u32 429496729u32 5u32 }
-- input { 5u32 7u32 } output { 0u32 5u32 0u32 5u32 }

entry div_i32 (a: i32) (b: i32) : (i32, i32, i32, i32) = (a / b, a % b, a // b, a %% b)

entry div_i64 (a: i64) (b: i64) : (i64, i64, i64, i64) = (a / b, a % b, a // b, a %% b)

entry div_i8 (a: i8) (b: i8) : (i8, i8, i8, i8) = (a / b, a % b, a // b, a %% b)

entry div_u32 (a: u32) (b: u32) : (u32, u32, u32, u32) = (a / b, a % b, a // b, a %% b)
