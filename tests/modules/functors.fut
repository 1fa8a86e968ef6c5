-- Parametric modules: over the built-in numeric modules, with several
-- parameters, returning parametric modules, applied to anonymous
-- structures, with result types refined by the argument's, and applied
-- twice to make independent modules.
-- ==
-- entry: numeric
-- input { [1.0f64, 2.0f64, 2.0f64] [1.0f32, 2.0f32, 2.0f32] }
-- output { 3.0f64 3.0f32 [1.0f64, 2.0f64, 2.0f64] }
-- entry: two_params
-- input { 3i32 } output { 3i32 9i64 }
-- entry: curried
-- input { 5i64 } output { 15i64 40i64 }
-- entry: anonymous
-- input { 10i32 } output { 13i32 20i32 }

module type vecspace = {
  type scalar
  val norm [n] : [n]scalar -> scalar
  val normalise [n] : [n]scalar -> [n]scalar
}

module mk_vecspace (T: real) : vecspace with scalar = T.t = {
  type scalar = T.t
  def norm [n] (xs: [n]T.t) = T.sqrt (T.sum (map (\x -> x T.* x) xs))
  def normalise [n] (xs: [n]T.t) : [n]T.t =
    let k = norm xs in map (T./ k) (map (T.* T.i64 1) xs)
}

module v64 = mk_vecspace f64
module v32 = mk_vecspace f32

entry numeric (xs: []f64) (ys: []f32) : (f64, f32, []f64) =
  (v64.norm xs, v32.norm ys, v64.(normalise xs |> map (* 3)))

module type showable = { type t val code : t -> i64 }

module mk_pair (A: showable) (B: showable with t = i64) = {
  def both (a: A.t) (b: B.t) = (a, A.code a + B.code b)
}

module ints = { type t = i32 def code (x: i32) = i64.i32 x }
module longs = { type t = i64 def code (x: i64) = x * 2 }
module pair = mk_pair ints longs

entry two_params (x: i32) : (i32, i64) = pair.both x (i64.i32 x)

-- A parametric module that returns a parametric module.
module adder = \(A: { val k : i64 }) -> \(B: { val k : i64 }) -> {
  def go (x: i64) = x * A.k + B.k
}

module add2 = adder { def k = 2i64 }
module add2_5 = add2 { def k = 5i64 }
module add2_30 = add2 { def k = 30i64 }

entry curried (x: i64) : (i64, i64) = (add2_5.go x, add2_30.go x)

-- Each application has its own functions, specialised to its argument.
module offset (P: { val off : i32 }) = {
  def shift (x: i32) = x + P.off
}

module o3 = offset { def off = 3i32 }
module o10 = offset ({ def off = 10i32 } : { val off : i32 })

entry anonymous (x: i32) : (i32, i32) = (o3.shift x, o10.shift x)
