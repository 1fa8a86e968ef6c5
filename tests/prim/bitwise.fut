-- Bitwise operators and bit-counting functions (popc, clz, ctz, get_bit).
-- ==
-- entry: ops_i32
-- input { 12i32 10i32 } output { 8i32 14i32 6i32 -13i32 }
-- input { -1i32 255i32 } output { 255i32 -1i32 -256i32 0i32 }
-- entry: ops_u16
-- input { 65280u16 4080u16 } output { 3840u16 65520u16 61680u16 255u16 }
-- entry: count_i32
-- input { 0i32 } output { 0i32 32i32 32i32 }
-- input { 1i32 } output { 1i32 31i32 0i32 }
-- input { -1i32 } output { 32i32 0i32 0i32 }
-- input { 40i32 } output { 2i32 26i32 3i32 }
-- input { -2147483648i32 } output { 1i32 0i32 31i32 }
-- entry: count_u8
-- input { 0u8 } output { 0i32 8i32 8i32 }
-- input { 129u8 } output { 2i32 0i32 0i32 }
-- input { 12u8 } output { 2i32 4i32 2i32 }
-- entry: count_i64
-- input { 4294967296i64 } output { 1i32 31i32 32i32 }
-- input { -4i64 } output { 62i32 0i32 2i32 }
-- entry: bits_of
-- input { 5i32 } output { [1i32, 0i32, 1i32, 0i32] }
-- input { -8i32 } output { [0i32, 0i32, 0i32, 1i32] }

entry ops_i32 (a: i32) (b: i32) : (i32, i32, i32, i32) = (a & b, a | b, a ^ b, !a)

entry ops_u16 (a: u16) (b: u16) : (u16, u16, u16, u16) = (a & b, a | b, a ^ b, !a)

entry count_i32 (x: i32) : (i32, i32, i32) = (i32.popc x, i32.clz x, i32.ctz x)

entry count_u8 (x: u8) : (i32, i32, i32) = (u8.popc x, u8.clz x, u8.ctz x)

entry count_i64 (x: i64) : (i32, i32, i32) = (i64.popc x, i64.clz x, i64.ctz x)

entry bits_of (x: i32) : [4]i32 = map (\b -> i32.get_bit b x) [0, 1, 2, 31]
