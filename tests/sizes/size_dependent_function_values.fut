-- A function whose result size depends on the value of its argument
-- (`iota`, `def g (k: i64) : [k]i64`) may be passed for a function
-- parameter whose result type is lifted (`'^b`) or has an unknown size
-- (`[]b`); `map`'s unlifted result type is an error
-- (recursion/errors/size_dependent_*.fut).
-- ==
-- entry: lifted
-- input { 2i64 3i64 } output { [0i64, 1i64] [0i64, 1i64, 2i64] }
-- entry: unsized
-- input { [1i64, 2i64, 3i64] } output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64] }

def apply2 '^a '^b (f: a -> b) (x: a) (y: a) : (b, b) = (f x, f y)

def concat_map [n] 'a 'b (f: a -> []b) (xs: [n]a) : []b =
  loop acc = [] for x in xs do acc ++ f x

def g (k: i64) : [k]i64 = iota k

entry lifted (n: i64) (m: i64) : ([]i64, []i64) = apply2 g n m

entry unsized [n] (xs: [n]i64) : []i64 = concat_map g xs
