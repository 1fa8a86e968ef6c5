-- Record construction (explicit fields and punning), field access, and
-- records with tuple and array fields; field order does not matter.
-- ==
-- input { 2i32 0.5f64 } output { 6i32 1.5f64 2i32 true 1.0f64 true }
-- input { -7i32 8.0f64 } output { -21i32 9.0f64 -7i32 true 16.0f64 true }

def main (a: i32) (b: f64) : (i32, f64, i32, bool, f64, bool) =
  let r = {a, b, c = (a * 2, [b, b + 1.0])}
  let s = {b = r.b, a = r.a}
  let t : {a: i32, b: f64} = {a = a, b = b}
  in (r.a + r.c.0, (r.c.1)[1], s.a, s == t, t.b * 2.0, {x = 1, y = a} == {y = a, x = 1})
