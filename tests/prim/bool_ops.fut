-- Boolean operators, including short-circuiting of && and || (the right
-- operand would index out of bounds).
-- ==
-- entry: logic
-- input { false false } output { false false true true false }
-- input { false true } output { false true true false true }
-- input { true false } output { false true false false true }
-- input { true true } output { true true false true false }
-- entry: guarded_and
-- input { [1i32, -2i32, 3i32] 0i64 } output { true }
-- input { [1i32, -2i32, 3i32] 1i64 } output { false }
-- input { [1i32, -2i32, 3i32] 10i64 } output { false }
-- entry: guarded_or
-- input { [0i32, 5i32] 1i64 } output { false }
-- input { [0i32, 5i32] 7i64 } output { true }

entry logic (a: bool) (b: bool) : (bool, bool, bool, bool, bool) = (a && b, a || b, !a, a == b, a != b)

entry guarded_and (xs: []i32) (i: i64) : bool = i < length xs && xs[i] > 0

entry guarded_or (xs: []i32) (i: i64) : bool = i >= length xs || xs[i] == 0
