-- Derivatives through `match` on sum types, in both modes: the tag is
-- chosen at run time from an integer, outside and inside the
-- differentiated function, and payloads carry records.
-- ==
-- entry: fwd_dist rev_dist
-- input { 0 1.0f64 2.0f64 } output { 0.0f64 1.0f64 }
-- input { 1 1.0f64 2.0f64 } output { 1.0f64 1.0f64 }
-- input { 2 1.0f64 2.0f64 } output { 0.0f64 0.5f64 }
-- input { 3 -4.0f64 2.0f64 } output { -2.0f64 0.0f64 }

-- ==
-- entry: fwd_inner rev_inner
-- input { 2.0f64 } output { 4.0f64 }
-- input { -3.0f64 } output { 1.0f64 }
-- input { 0.5f64 } output { 0.0f64 }

type pt = {x: f64, y: f64}

type metric = #euclid pt | #manhattan pt | #vertical f64 | #clamped f64

def metric_of (k: i32) : metric =
  match k
  case 0 -> #euclid {x = 1, y = 2}
  case 1 -> #manhattan {x = -1, y = -5}
  case 2 -> #vertical 0.5
  case _ -> #clamped 1

def dist (m: metric) (p: pt) : f64 =
  match m
  case #euclid c -> f64.sqrt ((p.x - c.x) ** 2 + (p.y - c.y + 4) ** 2)
  case #manhattan {x, y} -> f64.abs (p.x - x) + f64.abs (p.y - y)
  case #vertical w -> w * p.y * p.y / 4
  case #clamped w -> if p.x < 0 then w * p.x * p.x / 4 else 0

entry fwd_dist (k: i32) (x: f64) (y: f64) : (f64, f64) =
  let f = dist (metric_of k)
  in (jvp f {x, y} {x = 1, y = 0}, jvp f {x, y} {x = 0, y = 1})

entry rev_dist (k: i32) (x: f64) (y: f64) : (f64, f64) =
  let g = vjp (dist (metric_of k)) {x, y} 1
  in (g.x, g.y)

-- The sum value is built from the differentiated variable.
def piece (x: f64) : f64 =
  let s = if x > 1 then #quad (x * x) else if x < 0 then #lin x else #flat
  in match s
     case #quad q -> q
     case #lin l -> l
     case #flat -> 7

entry fwd_inner (x: f64) : f64 = jvp piece x 1

entry rev_inner (x: f64) : f64 = vjp piece x 1
