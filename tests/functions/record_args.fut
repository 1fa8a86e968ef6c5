-- Records as function parameters and results, with record patterns in
-- parameter position.
-- ==
-- input { 3.0f64 4.0f64 } output { 5.0f64 8.0f64 6.0f64 10.0f64 }
-- input { -1.0f64 0.0f64 } output { 1.0f64 0.0f64 -2.0f64 2.0f64 }

type point = {x: f64, y: f64}

def norm (p: point) : f64 = f64.sqrt (p.x * p.x + p.y * p.y)

def mirror ({x, y}: point) : point = {x = y, y = x}

def scale (k: f64) (p: point) : point = {x = k * p.x, y = k * p.y}

def main (a: f64) (b: f64) : (f64, f64, f64, f64) =
  let p = {x = a, y = b}
  let q = scale 2.0 (mirror p)
  in (norm p, q.x, q.y, norm q)
