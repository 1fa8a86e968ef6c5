-- Let-bindings with tuple, nested, wildcard, record and ascribed patterns.
-- ==
-- input { 3i32 1.25f64 } output { 7i32 3.0f64 12i32 true 12.0f64 }
-- input { -1i32 0.0f64 } output { -1i32 0.5f64 0i32 false 2.0f64 }

def main (x: i32) (y: f64) : (i32, f64, i32, bool, f64) =
  let (a, b) = (x + 1, y * 2.0)
  let ((c, _), d) = ((a * 2, false), x > 0)
  let {p, q = r} = {p = c - 1, q = b + 0.5}
  let (u: i32, v: f64) = (p, r)
  let (_, _, w) = (u, v, v * 4.0)
  in (u, v, a + c, d, w)
