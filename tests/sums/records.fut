-- Sum types with type parameters, in tuples and records, with record
-- payloads and record patterns, function payloads (resolved statically),
-- and single-constructor sums in irrefutable `let` and parameter
-- patterns.
-- ==
-- entry: lookup_or
-- input { [1, 5, 9] [10.0f32, 50.0f32, 90.0f32] 5 -1.0f32 } output { 50.0f32 }
-- input { [1, 5, 9] [10.0f32, 50.0f32, 90.0f32] 4 -1.0f32 } output { -1.0f32 }
-- input { empty([0]i32) empty([0]f32) 4 2.0f32 } output { 2.0f32 }

-- ==
-- entry: ranges
-- input { 0 10 } output { 2i32 9i32 }
-- input { 1 10 } output { 0i32 10i32 }
-- input { 2 10 } output { -1i32 0i32 }

-- ==
-- entry: ops
-- input { 0 7 } output { 21i32 }
-- input { 1 7 } output { 17i32 }
-- input { 2 7 } output { -7i32 }

-- ==
-- entry: eithers
-- input { [1, 2, 3, 4] [true, false, false, true] } output { 15i32 }

-- ==
-- entry: single
-- input { 41 } output { 42i32 }

type option 'a = #some a | #none

def get_or 'a (d: a) (o: option a) : a =
  match o
  case #some v -> v
  case #none -> d

def lookup [n] 'v (keys: [n]i32) (vals: [n]v) (k: i32) : option v =
  loop (acc : option v) = #none for i < n do
    match acc
    case #none -> if keys[i] == k then #some vals[i] else #none
    case found -> found

entry lookup_or [n] (keys: [n]i32) (vals: [n]f32) (k: i32) (d: f32) : f32 =
  get_or d (lookup keys vals k)

type extent = #range {lo: i32, hi: i32} | #point i32 | #none

entry ranges (k: i32) (x: i32) : (i32, i32) =
  let e : extent =
    if k == 0 then #range {lo = x - 1, hi = x + 1}
    else if k == 1 then #point x
    else #none
  let w = match (e, 0)
          case (#range {lo, hi}, _) -> {width = hi - lo, start = lo}
          case (#point p, z) -> {width = z, start = p}
          case (#none, _) -> {width = -1, start = 0}
  in (w.width, w.start)

type^ op = #scale i32 | #shift (i32 -> i32) | #neg

def run (o: op) (x: i32) : i32 =
  match o
  case #scale s -> s * x
  case #shift f -> f x
  case #neg -> -x

entry ops (k: i32) (x: i32) : i32 =
  if k == 0 then run (#scale 3) x
  else if k == 1 then run (#shift (+ 10)) x
  else run #neg x

type either 'a 'b = #left a | #right b

entry eithers [n] (xs: [n]i32) (flags: [n]bool) : i32 =
  let es : [n](either i32 (i32, i32)) =
    map2 (\x f -> if f then #left x else #right (x, x)) xs flags
  in reduce (+) 0 (map (\e -> match e
                              case #left x -> x
                              case #right (a, b) -> a + b) es)

type wrapped = #wrap i32

def unwrap ((#wrap x): wrapped) : i32 = x

entry single (x: i32) : i32 =
  let #wrap y = #wrap (x + 1) : wrapped
  in unwrap (#wrap y)
