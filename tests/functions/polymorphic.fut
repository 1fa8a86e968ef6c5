-- Polymorphic functions with type parameters, used at several types.
-- ==
-- entry: use_pair
-- input { 3i32 2.5f64 } output { 2.5f64 3i32 true 4i32 }
-- entry: use_twice
-- input { 5i32 } output { 11i32 11.25f64 [20i32, 24i32] }
-- input { -1i32 } output { 5i32 -2.25f64 [-4i32, 0i32] }
-- entry: firsts
-- input { [[1i32, 2i32], [3i32, 4i32]] [true, false] } output { [1i32, 2i32] true 1i32 }

def pair 'a 'b (x: a) (y: b) : (a, b) = (x, y)

def twice 'a (f: a -> a) (x: a) : a = f (f x)

def first [n] 't (xs: [n]t) : t = xs[0]

def swap 'a 'b ((x, y): (a, b)) : (b, a) = (y, x)

entry use_pair (x: i32) (y: f64) : (f64, i32, bool, i32) =
  let (p, q) = swap (pair x y)
  let (r, s) = pair (x > 0) (x + 1)
  in (p, q, r, s)

entry use_twice (x: i32) : (i32, f64, []i32) =
  (twice (+ 3) x, twice (\y -> y * 1.5) (f64.i32 x), twice (map (* 2)) [x, x + 1])

entry firsts (m: [][]i32) (bs: []bool) : ([]i32, bool, i32) = (first m, first bs, first (first m))
