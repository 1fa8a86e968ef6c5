-- Arrays of sums: built by `map` and array literals, consumed by `map`,
-- `reduce` (an option monoid), `filter`, loops with in-place updates,
-- and indexing.
-- ==
-- entry: signs
-- input { [3, -1, 0, 5, -7] } output { [3, 1, 0, 5, 7] [1, -1, 0, 1, -1] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }

-- ==
-- entry: first_positive
-- input { [-1, -2, 4, 9] } output { true 4 }
-- input { [-1, -2, -4] } output { false 0 }
-- input { empty([0]i32) } output { false 0 }

-- ==
-- entry: flip_all
-- input { [1, 2, 3] } output { [-1, -2, -3, 2, 4, 6] }

-- ==
-- entry: literal_index
-- input { 0i64 } output { 10.0f32 }
-- input { 1i64 } output { -2.5f32 }
-- input { 2i64 } output { 0.0f32 }

-- ==
-- entry: count_kinds
-- input { [1, 2, 3, 4, 5, 6, 7] 3 } output { 2i64 5i64 }

type opt 'a = #some a | #none

def first (x: opt i32) (y: opt i32) : opt i32 =
  match x
  case #some _ -> x
  case #none -> y

type sign = #pos i32 | #neg i32 | #zero

def sign_of (x: i32) : sign =
  if x > 0 then #pos x else if x < 0 then #neg (-x) else #zero

entry signs (xs: []i32) : ([]i32, []i32) =
  let ss = map sign_of xs
  let mags = map (\s -> match s
                        case #pos m -> m
                        case #neg m -> m
                        case #zero -> 0) ss
  let sgns = map (\s -> match s
                        case #pos _ -> 1
                        case #neg _ -> -1
                        case #zero -> 0) ss
  in (mags, sgns)

entry first_positive (xs: []i32) : (bool, i32) =
  let opts = map (\x -> if x > 0 then #some x else #none) xs
  in match reduce first #none opts
     case #some v -> (true, v)
     case #none -> (false, 0)

type cell = #a i32 | #b i32

entry flip_all (xs: []i32) : []i32 =
  let cs = map (\x -> #a x) xs ++ map (\x -> #b x) xs
  let cs = loop cs = copy cs for i < length cs do
             cs with [i] = match cs[i]
                           case #a x -> #b (-x)
                           case #b x -> #a (2 * x)
  in map (\c -> match c
                case #a x -> x
                case #b x -> x) cs

type num = #int i32 | #float f32 | #nothing

entry literal_index (i: i64) : f32 =
  let vs : []num = [#int 10, #float (-2.5), #nothing]
  in match vs[i]
     case #int k -> f32.i32 k
     case #float f -> f
     case #nothing -> 0

entry count_kinds (xs: []i32) (k: i32) : (i64, i64) =
  let tagged = map (\x -> if x % k == 0 then #multiple x else #other x) xs
  let ms = filter (\t -> match t
                         case #multiple _ -> true
                         case #other _ -> false) tagged
  in (length ms, length tagged - length ms)
