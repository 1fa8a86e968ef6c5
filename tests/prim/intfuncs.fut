-- Integer module functions: min, max, abs, sgn, mul_hi, mad_hi, and
-- the sum/product/maximum/minimum reductions.
-- ==
-- entry: funcs_i32
-- input { -7i32 3i32 } output { -7i32 3i32 7i32 -1i32 -1i32 0i32 }
-- input { 2147483647i32 2147483647i32 } output { 2147483647i32 2147483647i32 2147483647i32 1i32 1073741823i32 1073741824i32 }
-- input { 100000i32 -100000i32 } output { -100000i32 100000i32 100000i32 1i32 -3i32 -2i32 }
-- input { 0i32 0i32 } output { 0i32 0i32 0i32 0i32 0i32 1i32 }
-- entry: funcs_i64
-- input { -9223372036854775807i64 4i64 } output { -9223372036854775807i64 9223372036854775807i64 1i64 -2i64 -3i64 }
-- input { 12i64 -5i64 } output { -5i64 12i64 -1i64 -1i64 -2i64 }
-- entry: funcs_u64
-- input { 18446744073709551615u64 2u64 } output { 2u64 18446744073709551615u64 1u64 6u64 }
-- input { 4294967296u64 4294967296u64 } output { 4294967296u64 4294967296u64 1u64 6u64 }
-- entry: funcs_u8
-- input { 200u8 3u8 } output { 200u8 2u8 252u8 1u8 }
-- input { 15u8 17u8 } output { 17u8 0u8 250u8 1u8 }
-- entry: reductions
-- input { [3i32, -1i32, 4i32, -1i32, 5i32] } output { 10i32 60i32 5i32 -1i32 }
-- input { empty([0]i32) } output { 0i32 1i32 -2147483648i32 2147483647i32 }

entry funcs_i32 (a: i32) (b: i32) : (i32, i32, i32, i32, i32, i32) =
  (i32.min a b, i32.max a b, i32.abs a, i32.sgn a, i32.mul_hi a b, i32.mad_hi a b 1)

entry funcs_i64 (a: i64) (b: i64) : (i64, i64, i64, i64, i64) =
  (i64.min a b, i64.abs a, i64.sgn b, i64.mul_hi a b, i64.mad_hi a b (-1))

entry funcs_u64 (a: u64) (b: u64) : (u64, u64, u64, u64) =
  (u64.min a b, u64.max a b, u64.mul_hi a b, u64.mad_hi a b 5)

entry funcs_u8 (a: u8) (b: u8) : (u8, u8, u8, u8) =
  (u8.max a b, u8.mul_hi a b, u8.mad_hi a b 250, u8.sgn a)

entry reductions (xs: []i32) : (i32, i32, i32, i32) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs)
