-- Nested records, destructured with nested record patterns.
-- ==
-- input { 1.0f64 2.0f64 3.0f64 4.0f64 } output { 8.0f64 2.0f64 3.0f64 }
-- input { 0.0f64 0.0f64 -1.0f64 2.5f64 } output { 7.25f64 -0.5f64 1.25f64 }

type vec2 = {x: f64, y: f64}
type segment = {from: vec2, to: vec2}

def length_sq ({from = {x = x0, y = y0}, to = {x = x1, y = y1}}: segment) : f64 =
  (x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)

def midpoint (s: segment) : vec2 =
  {x = (s.from.x + s.to.x) / 2.0, y = (s.from.y + s.to.y) / 2.0}

def main (a: f64) (b: f64) (c: f64) (d: f64) : (f64, f64, f64) =
  let s = {from = {x = a, y = b}, to = {x = c, y = d}}
  let {x = mx, y = my} = midpoint s
  in (length_sq s, mx, my)
