-- Size parameters reached through type abbreviations: sizes read off the
-- fields of a record abbreviation, off nested and polymorphic
-- abbreviations, from a size expression given to an abbreviation, in a
-- size-binding `let` and a local function, and `unflatten`'s sizes from a
-- result type that is an abbreviation.
-- ==
-- entry: model
-- input { [0i32, 0i32, 1i32] [[1f64, 2f64, 3f64], [4f64, 5f64, 6f64]] }
-- output { 3i64 2i64 21f64 }
-- input { empty([0]i32) [[1f64, 2f64, 3f64]] } output { 0i64 1i64 6f64 }
-- entry: rows
-- input { [[1f64, 2f64, 3f64], [4f64, 5f64, 6f64]] } output { 2i64 3i64 }
-- entry: dot
-- input { [1f64, 2f64] [3f64, 4f64] } output { 13f64 }
-- input { [1f64, 2f64] [3f64] } error: [Ss]ize|[Ss]hape
-- entry: reshape
-- input { 2i64 3i64 [1f64, 2f64, 3f64, 4f64, 5f64, 6f64] }
-- output { [[1f64, 2f64, 3f64], [4f64, 5f64, 6f64]] }
-- input { 4i64 2i64 [1f64, 2f64, 3f64, 4f64, 5f64, 6f64] } error: [Ss]ize|[Ss]hape
-- entry: bound_in_let
-- input { [[1f64, 2f64, 3f64], [4f64, 5f64, 6f64]] } output { 8i64 }

type hand_model [num_bones] [M] = {parents: [num_bones]i32, verts: [M][3]f64}
type vec [n] = [n]f64
type mat [n] [m] = [n](vec [m])
type pair 't [k] = ([k]t, [k]t)

def sizes [num_bones] [M] (model: hand_model [num_bones] [M]) : (i64, i64) = (num_bones, M)

entry model (p: []i32) (v: [][3]f64) : (i64, i64, f64) =
  let m = {parents = p, verts = v}
  let (b, n) = sizes m
  in (b, n, f64.sum (flatten m.verts))

def dims [r] [c] (a: mat [r] [c]) : (i64, i64) = (r, c)

entry rows (x: [][]f64) : (i64, i64) = dims x

def dotp [k] (p: pair f64 [k]) : f64 = f64.sum (map2 (*) p.0 p.1) + f64.i64 k

entry dot [n] (x: [n]f64) (y: []f64) : f64 = dotp (x, y :> [n]f64)

def resh [a] [b] (xs: vec [a * b]) : mat [a] [b] = unflatten xs

entry reshape (r: i64) (c: i64) (xs: []f64) : [r][c]f64 = resh (xs :> [r * c]f64)

entry bound_in_let (x: [][3]f64) : i64 =
  let [n] (y: mat [n] [3]) = x
  let count [a] [b] (q: mat [a] [b]) : i64 = a * b
  in n + count y
