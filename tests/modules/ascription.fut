-- Module types and ascription: value and type specifications, abstract
-- types used through their operations, `with` refinements, `include`,
-- nested module specifications, size parameters in specifications and
-- parametric abstract types.
-- ==
-- entry: counter
-- input { 5i32 } output { 7i32 }
-- entry: stack
-- input { [1i64, 2i64, 3i64] } output { 6i64 3i64 }
-- entry: refined
-- input { [1.0f32, 2.0f32] } output { [2.0f32, 3.0f32] 2i64 }
-- entry: nested
-- input { 2i32 } output { 4i32 true }

module type counter = {
  type t
  val zero : t
  val incr : t -> t
  val value : t -> i32
}

-- Opaque: `c.t` is not `i32` outside.
module c : counter = {
  type t = i32
  def zero = 0i32
  def incr (x: t) = x + 1
  def value (x: t) = x
}

entry counter (n: i32) : i32 =
  c.value (loop x = c.incr (c.incr c.zero) for _i < n do c.incr x)

module type container = {
  type elem
  type t [n]
  val make [n] : [n]elem -> t [n]
  val total [n] : t [n] -> elem
  val size [n] : t [n] -> i64
}

module sum_stack : container with elem = i64 = {
  type elem = i64
  type t [n] = [n]i64
  def make [n] (xs: [n]i64) : t [n] = xs
  def total [n] (xs: t [n]) = i64.sum xs
  def size [n] (_: t [n]) = n
}

entry stack (xs: []i64) : (i64, i64) =
  let s = sum_stack.make xs in (sum_stack.total s, sum_stack.size s)

module type mappable = {
  type t 'a
  val map_t 'a 'b : (a -> b) -> t a -> t b
  val len 'a : t a -> i64
}

module type mappable_arr = mappable with t 'a = []a

module arr : mappable_arr = {
  type t 'a = []a
  def map_t 'a 'b (f: a -> b) (xs: []a) : []b = map f xs
  def len 'a (xs: []a) = length xs
}

entry refined (xs: []f32) : ([]f32, i64) =
  (arr.map_t (+ 1) xs, arr.len xs)

module type has_num = { val num : i32 }
module type pair_of = {
  include has_num
  module sub : { type t val mk : i32 -> t val is_even : t -> bool }
}

module p : pair_of = {
  def num = 2i32
  module sub = {
    type t = i32
    def mk (x: i32) = x
    def is_even (x: t) = x % 2 == 0
  }
}

entry nested (x: i32) : (i32, bool) = (x * p.num, p.sub.is_even (p.sub.mk x))
