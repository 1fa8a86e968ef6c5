-- An application mapped over seven arrays at once: the prelude's `map5`
-- takes five, so the arrays are zipped in groups.
-- ==
-- input { [1, 2] [10, 20] [100, 200] [1000, 2000] [1, 1] [2, 2] [3, 3] }
-- output { [1125, 2236] }

def f (a: i32) (b: i32) (c: i32) (d: i32) (e: i32) (g: i32) (h: i32) =
  a + b + c + d + e * 2 + g * 3 + h * 2

def main (a: []i32) (b: []i32) (c: []i32) (d: []i32) (e: []i32) (g: []i32) (h: []i32) =
  f a b c d e g h
