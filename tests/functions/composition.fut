-- Function composition operators >-> and <-<, and the functional
-- prelude helpers flip, curry, uncurry, const and id.
-- ==
-- entry: compose
-- input { [1i32, 2i32, 3i32] } output { [4i32, 6i32, 8i32] [3i32, 5i32, 7i32] [5i32, 7i32, 9i32] }
-- entry: helpers
-- input { 7i32 2i32 } output { -5i32 14i32 5i32 7i32 2i32 }

def inc (x: i32) : i32 = x + 1

def dbl (x: i32) : i32 = x * 2

entry compose (xs: []i32) : ([]i32, []i32, []i32) =
  (map (inc >-> dbl) xs, map (inc <-< dbl) xs, map (inc >-> dbl >-> inc) xs)

entry helpers (a: i32) (b: i32) : (i32, i32, i32, i32, i32) =
  ( flip (-) a b
  , curry (\(x, y) -> x * y) a b
  , uncurry (-) (a, b)
  , const a b
  , id b
  )
