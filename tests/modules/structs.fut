-- Structures: nested modules, qualified values, types and operators,
-- `M.(e)`, `open`, `local`, module aliases and shadowing.
-- ==
-- entry: qualified
-- input { 3i32 } output { 10i32 7i32 16i32 }
-- entry: local_open
-- input { 2.0f64 3.0f64 } output { 13.0f64 6.0f64 }
-- entry: opened
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] 5i64 }
-- entry: records
-- input { } output { 3i32 4.5f64 }
-- entry: sized
-- input { [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] } output { 2i64 3i64 6i64 }

module arith = {
  def two = 2i32
  def double (x: i32) = x * two
  module inner = {
    def add3 (x: i32) = x + 3
    type pair = (i32, i32)
  }
  -- An operator defined in a module, used qualified and opened.
  def (<+>) (a: i32) (b: i32) = a * 2 + b
}

module alias = arith.inner

entry qualified (x: i32) : (i32, i32, i32) =
  let p : alias.pair = (arith.double x + arith.two, arith.inner.add3 4)
  in (p.0 + 2, p.1, x arith.<+> x + 7)

module v2 = {
  type t = {x: f64, y: f64}
  def dot (a: t) (b: t) = a.x * b.x + a.y * b.y
  def scale (k: f64) (a: t) : t = {x = k * a.x, y = k * a.y}
  def (+) (a: t) (b: t) : t = {x = a.x f64.+ b.x, y = a.y f64.+ b.y}
}

-- Inside `v2.(…)` its `+` is the vector sum; a local bound inside
-- shadows the module's names.
entry local_open (a: f64) (b: f64) : (f64, f64) =
  let u : v2.t = {x = a, y = b}
  let w = v2.(let dot = 1.0 in (scale dot u + u))
  in (v2.dot u u, w.y)

module squares = {
  local def sq (x: i64) = x * x
  def table (n: i64) = map sq (iota n)
}

module counting = {
  open squares
  def last (n: i64) = n + 1
}

entry opened (n: i64) : ([]i64, i64) =
  (counting.table n, counting.last n)

module consts = {
  def r = {a = 3i32, b = 4.5f64}
}

entry records : (i32, f64) = (consts.r.a, consts.r.b)

-- A size-parameterised type used qualified and after `open`, with other
-- types defined in between: its sizes are its arguments wherever used.
module shapes = {
  type other = i32
  type mat [r] [c] = [r][c]f64
}

def rows [r] [c] (_: shapes.mat [r] [c]) : i64 = r

module more = {
  type filler = bool
  open shapes
  def cols [r] [c] (_: mat [r] [c]) : i64 = c
}

entry sized [r] [c] (m: [r][c]f64) : (i64, i64, i64) =
  (rows m, more.cols m, rows m * more.cols m)
