-- Recursive functions in modules (also a parametric one), with unique
-- parameters updated in place, returning tuples, records and sum types,
-- and an entry point that calls itself.
-- ==
-- entry: in_module
-- input { 5i64 } output { 15i64 120.0f64 }
-- entry: fill
-- input { 3i64 [0i32, 0i32, 0i32, 0i32, 0i32] } output { [1i32, 2i32, 3i32, 0i32, 0i32] }
-- input { 0i64 [7i32] } output { [7i32] }
-- entry: minmax
-- input { [3i32, -1i32, 4i32, 1i32, 5i32] } output { -1i32 5i32 }
-- entry: find
-- input { [3i32, -1i32, 4i32, 1i32, 5i32] 4i32 } output { true 2i64 }
-- input { [3i32, -1i32, 4i32] 9i32 } output { false 0i64 }
-- entry: triangle
-- input { 4i64 } output { 10i64 }
-- input { -4i64 } output { 0i64 }

module M = {
  def sum_to (n: i64) : i64 = if n <= 0 then 0 else n + sum_to (n - 1)
}

module type num = {
  type t
  val one : t
  val mul : t -> t -> t
  val from : i64 -> t
}

module Fact (N: num) = {
  def fact (n: i64) : N.t = if n <= 0 then N.one else N.mul (N.from n) (fact (n - 1))
}

module F = Fact { type t = f64 def one = 1f64 def mul (x: f64) (y: f64) = x * y def from = f64.i64 }

def fill_down [n] (k: i64) (xs: *[n]i32) : *[n]i32 =
  if k <= 0 || k > n then xs
  else fill_down (k - 1) (xs with [k - 1] = i32.i64 k)

def mm [n] (xs: [n]i32) : {lo: i32, hi: i32} =
  if n == 1 then {lo = xs[0], hi = xs[0]}
  else let r = mm (drop 1 xs)
       in {lo = i32.min xs[0] r.lo, hi = i32.max xs[0] r.hi}

type opt = #none | #some i64

def index_of [n] (x: i32) (i: i64) (xs: [n]i32) : opt =
  if i >= n then #none else if xs[i] == x then #some i else index_of x (i + 1) xs

entry in_module (n: i64) : (i64, f64) = (M.sum_to n, F.fact n)

entry fill [n] (k: i64) (xs: *[n]i32) : *[n]i32 = fill_down k xs

entry minmax [n] (xs: [n]i32) : (i32, i32) =
  if n == 0 then (0, 0) else let r = mm xs in (r.lo, r.hi)

entry find [n] (xs: [n]i32) (x: i32) : (bool, i64) =
  match index_of x 0 xs
  case #none -> (false, 0)
  case #some i -> (true, i)

entry triangle (n: i64) : i64 = if n <= 0 then 0 else n + triangle (n - 1)
