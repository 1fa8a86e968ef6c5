-- A type parameter may have the name of a size-lifted type: the plain
-- abbreviation then refers to the parameter, not to the `type~`. A constant
-- with size parameters and a declared type is instantiated at each use.
-- ==
-- input { 3i64 } output { 7i32 [[1i64, 1i64, 1i64], [1i64, 1i64, 1i64]] }

type~ buf = []i32
type tagged 'buf = (i32, buf)

def ones [r] [c] : [r][c]i64 = replicate r (replicate c 1)

def main (c: i64) : (i32, [2][c]i64) =
  let t : tagged i32 = (3, 4)
  in (t.0 + t.1, ones)
