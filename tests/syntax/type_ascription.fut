-- Type abbreviations, type ascriptions and size coercions.
-- ==
-- input { [1.0f64, -2.0f64, 3.5f64] 4i32 } output { 13.0f64 8i32 true 4i64 }
-- input { empty([0]f64) -4i32 } output { 0.0f64 -8i32 false 1i64 }

type vec = []f64
type pair = (i32, bool)

def norm1 (v: vec) : f64 = reduce (+) 0.0 (map f64.abs v)

def main [n] (v: [n]f64) (k: i32) : (f64, i32, bool, i64) =
  let p : pair = (k * 2, k > 0)
  let w = map (* 2.0) v :> [n]f64
  let m : i64 = n
  in (norm1 w, p.0, p.1, (m + 1 : i64))
