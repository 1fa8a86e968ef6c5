-- Operator precedence and associativity, following the language
-- reference's table: `**` is left-associative, bitwise operators bind
-- more loosely than `+`, prefix operators bind tightest, `&&` binds
-- tighter than `||`.
-- ==
-- entry: arith
-- input { 2i32 3i32 2i32 } output { 4i32 }
-- input { 7i32 2i32 1i32 } output { 7i32 }
-- input { -3i32 1i32 4i32 } output { -1i32 }
-- input { 5i32 0i32 3i32 } output { 5i32 }
-- entry: power
-- input { 2i32 3i32 2i32 } output { 64i32 }
-- input { 7i32 2i32 1i32 } output { 49i32 }
-- input { -3i32 1i32 4i32 } output { 81i32 }
-- input { 5i32 0i32 3i32 } output { 1i32 }
-- entry: bits
-- input { 2i32 3i32 2i32 } output { 0i32 14i32 false }
-- input { 7i32 2i32 1i32 } output { 3i32 7i32 false }
-- input { -3i32 1i32 4i32 } output { 5i32 -3i32 false }
-- input { 5i32 0i32 3i32 } output { 1i32 5i32 false }
-- entry: neg
-- input { 2i32 3i32 2i32 } output { -2i32 1i32 }
-- input { 7i32 2i32 1i32 } output { 47i32 0i32 }
-- input { -3i32 1i32 4i32 } output { 5i32 0i32 }
-- input { 5i32 0i32 3i32 } output { 25i32 0i32 }
-- entry: logic
-- input { 2i32 3i32 2i32 } output { true }
-- input { 7i32 2i32 1i32 } output { false }
-- input { -3i32 1i32 4i32 } output { true }
-- input { 5i32 0i32 3i32 } output { true }

entry arith (a: i32) (b: i32) (c: i32) : i32 =
  a + b * c - a % (b + 1) * 2

entry power (a: i32) (b: i32) (c: i32) : i32 =
  a ** b ** c

entry bits (a: i32) (b: i32) (c: i32) : (i32, i32, bool) =
  (a & b + c, a | b << c, a ^ b == c)

entry neg (a: i32) (b: i32) (c: i32) : (i32, i32) =
  (-a ** 2 + b * -c, !a & b)

entry logic (a: i32) (b: i32) (c: i32) : bool =
  a < b || b < c && c < a
