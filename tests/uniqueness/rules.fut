-- Programs the uniqueness rules accept: lambda and loop parameters
-- declared unique are consumable; results inferred unique are fresh per
-- component; a function parameter declared to return a unique value gives
-- a consumable result; loop parameters swap without consuming; constants
-- alias only through their arrays; a consuming function may be passed for
-- a parameter declared to consume; a functor's constant of an abstract
-- type may be returned.
-- ==
-- entry: unique_lambda
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[0i32, 2i32], [0i32, 4i32]] }
-- entry: unique_loop_param
-- input { [1i32, 2i32, 3i32] } output { [0i32, 1i32, 2i32] }
-- entry: inferred_fresh
-- input { 3i64 } output { [7i64, 1i64, 2i64] [0i64, 1i64, 2i64] }
-- entry: unique_fn_result
-- input { 3i64 } output { [1i32, 0i32, 0i32] }
-- entry: swap_loop
-- input { 3i64 } output { [1i64, 1i64] [0i64, 0i64] }
-- entry: constant_function
-- input { 4i32 } output { [1i32, 1i32] [4i32, 4i32] }
-- entry: consuming_callback
-- input { [1i32, 2i32, 3i32] } output { [0i32, 2i32, 3i32] }
-- entry: functor_constant
-- input { 2i64 } output { [0f32, 0f32] }

entry unique_lambda (xss: [][]i32) : [][]i32 =
  map (\xs -> (\(ys: *[]i32) -> ys with [0] = 0) (copy xs)) xss

entry unique_loop_param (xs: *[]i32) : []i32 =
  loop (acc: *[]i32) = xs for i < length xs do acc with [i] = i32.i64 i

-- Without a declared result type, each component is unique: consuming one
-- leaves the other usable.
def two (n: i64) = (iota n, iota n)

entry inferred_fresh (n: i64) : ([]i64, []i64) =
  let (a, b) = two n
  let a[0] = 7
  in (a, b)

def fill (f: i64 -> *[]i32) (n: i64) : []i32 =
  let xs = f n
  let xs[0] = 1
  in xs

entry unique_fn_result (n: i64) : []i32 = fill (\k -> replicate k 0) n

entry swap_loop (n: i64) : ([]i64, []i64) =
  loop (a, b) = (replicate 2 0, replicate 2 1) for i < n do (b, a)

type^ pair [n] = ([n]i32, i32 -> [n]i32)

def table : pair [] = (replicate 2 1, \i -> replicate 2 i)

entry constant_function (x: i32) : ([]i32, []i32) = (copy table.0, table.1 x)

def apply_consuming (f: *[]i32 -> *[]i32) (xs: *[]i32) : *[]i32 = f xs

def zero_first (xs: *[]i32) : *[]i32 = xs with [0] = 0

entry consuming_callback (xs: *[]i32) : []i32 = apply_consuming zero_first xs

module type space = { type v val zero : v val size : v -> i64 }

module with_zero (S: space) = {
  def start (_: i64) : S.v = S.zero
}

module vec2 = {
  type v = [2]f32
  def zero : v = [0, 0]
  def size (_: v) : i64 = 2
}

module W = with_zero vec2

entry functor_constant (n: i64) : [2]f32 = W.start n
