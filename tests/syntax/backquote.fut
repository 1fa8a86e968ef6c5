-- Backquoted function names as infix operators, user-defined operators
-- and sections of both.
-- ==
-- entry: bq
-- input { 1.0f64 3.0f64 } output { 6.0f64 }
-- entry: user_op
-- input { 2i32 3i32 } output { 50i32 }
-- input { -1i32 0i32 } output { 2i32 }
-- entry: op_section
-- input { [1i32, 2i32, -3i32] } output { [4i32, 7i32, 12i32] [10i32, 11i32, 6i32] }
-- entry: bq_section
-- input { [1i32, -2i32, 0i32, 7i32] } output { [1i32, 0i32, 0i32, 7i32] [1i32, -2i32, 0i32, 5i32] }
-- entry: tuple_op
-- input { 1i32 2i32 } output { 4i32 6i32 }

def avg (a: f64) (b: f64) : f64 = (a + b) / 2.0

def (+^) (a: i32) (b: i32) : i32 = a * a + b

def (<+>) (a: i32, b: i32) (c: i32, d: i32) : (i32, i32) = (a + c, b * d)

entry bq (x: f64) (y: f64) : f64 = x `avg` y `avg` 10.0

entry user_op (a: i32) (b: i32) : i32 = a +^ b +^ 1

entry op_section (xs: []i32) : ([]i32, []i32) = (map (+^ 3) xs, map (3 +^) xs)

entry bq_section (xs: []i32) : ([]i32, []i32) =
  (map (`i32.max` 0) xs, map (5 `i32.min`) xs)

entry tuple_op (a: i32) (b: i32) : (i32, i32) = (a, b) <+> (b, a) <+> (1, 3)
