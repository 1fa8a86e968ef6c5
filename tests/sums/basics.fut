-- Sum types: constructors with and without payloads, match with
-- constructor, literal (negative, float, bool), wildcard, variable and
-- nested tuple patterns; tags known statically and at run time; `==`.
-- ==
-- entry: classify
-- input { 0 } output { 100 }
-- input { -1 } output { 200 }
-- input { 7 } output { 14 }
-- input { -3 } output { -6 }

-- ==
-- entry: area_of
-- input { 0 2.0f64 3.0f64 } output { 12.566370614359172f64 }
-- input { 1 2.0f64 3.0f64 } output { 6.0f64 }
-- input { 2 2.0f64 3.0f64 } output { 3.0f64 }
-- input { 5 2.0f64 3.0f64 } output { 0.0f64 }

-- ==
-- entry: static_area
-- input { 1.5f64 } output { 7.0685834705770345f64 3.0f64 }

-- ==
-- entry: eq_sums
-- input { 1 1 } output { true false true false }
-- input { 1 2 } output { false false true true }
-- input { 0 0 } output { true true true false }

-- ==
-- entry: nested
-- input { 0 5 } output { 5 }
-- input { 1 5 } output { 105 }
-- input { 1 3 } output { 1003 }
-- input { 2 5 } output { -1 }

-- ==
-- entry: floats
-- input { -1.0f32 true } output { 1 }
-- input { 0.5f32 true } output { 2 }
-- input { 0.5f32 false } output { 3 }
-- input { 2.0f32 false } output { 4 }

type shape = #circle f64 | #rect f64 f64 | #tri f64 f64 | #empty

def shape_of (k: i32) (a: f64) (b: f64) : shape =
  match k
  case 0 -> #circle a
  case 1 -> #rect a b
  case 2 -> #tri a b
  case _ -> #empty

def area (s: shape) : f64 =
  match s
  case #circle r -> f64.pi * r * r
  case #rect w h -> w * h
  case #tri base height -> base * height / 2
  case #empty -> 0

entry classify (x: i32) : i32 =
  match x
  case 0 -> 100
  case -1 -> 200
  case y -> y * 2

entry area_of (k: i32) (a: f64) (b: f64) : f64 =
  area (shape_of k a b)

-- The constructors are visible to static evaluation: no branches.
entry static_area (r: f64) : (f64, f64) =
  (area (#circle r), area (#rect r 2))

entry eq_sums (a: i32) (b: i32) : (bool, bool, bool, bool) =
  let x : shape = if a == 0 then #empty else #rect (f64.i32 a) 1
  let y : shape = if b == 0 then #empty else #rect (f64.i32 b) 1
  in (x == y, x == #empty, (#circle 1.0 : shape) == #circle 1.0, x != y)

type inner = #small i32 | #big i32
type outer = #one inner | #none

def make (k: i32) (v: i32) : outer =
  if k == 0 then #one (#small v) else if k == 1 then #one (#big v) else #none

entry nested (k: i32) (v: i32) : i32 =
  match (make k v, v)
  case (#one (#small x), _) -> x
  case (#one (#big 3), _) -> 1003
  case (#one (#big _), y) -> 100 + y
  case (#none, _) -> -1

entry floats (x: f32) (b: bool) : i32 =
  match (x, b)
  case (-1f32, _) -> 1
  case (0.5, true) -> 2
  case (_, false) -> if x < 1 then 3 else 4
  case _ -> 5
