-- Tuple projections t.0, t.1, nested projections, and tuples viewed as
-- records with numeric field names.
-- ==
-- input { 5i32 2.0f64 } output { 11i32 2.0f64 true 15i32 3.0f64 }
-- input { -1i32 -0.5f64 } output { -1i32 -0.5f64 false -3i32 0.5f64 }

def main (a: i32) (b: f64) : (i32, f64, bool, i32, f64) =
  let t = (a, (b, a > 0), [a, a + 1])
  let u : (i32, f64) = {0 = a * 3, 1 = b + 1.0}
  in (t.0 + (t.2)[1], t.1.0, t.1.1, u.0, u.1)
