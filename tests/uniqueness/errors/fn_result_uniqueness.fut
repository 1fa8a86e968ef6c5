-- A function passed for a parameter declared to return a unique value
-- must return one.
-- ==
-- error: return types have incompatible uniqueness

def fill (f: i64 -> *[]i32) (n: i64) : *[]i32 = f n with [0] = 1

def main (xs: []i32) : []i32 =
  let g (n: i64) : []i32 = xs[:n]
  in fill g 2
