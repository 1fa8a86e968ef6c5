-- Higher-order functions: functions as arguments, functions returned
-- from functions, and functions stored in tuples and records.
-- ==
-- entry: apply_n_
-- input { 4i32 1i32 } output { 81i32 }
-- input { 0i32 7i32 } output { 7i32 }
-- entry: adders
-- input { [1i32, 2i32, 3i32] } output { [11i32, 12i32, 13i32] [10i32, 11i32, 12i32] }
-- entry: choose
-- input { true 3.0f64 } output { 6.0f64 }
-- input { false 3.0f64 } output { 6.0f64 }
-- entry: fun_record
-- input { 6i32 } output { 13i32 14i32 }

def apply_n 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x

def adder (k: i32) : i32 -> i32 = \x -> x + k

-- (A conditional may not return a function, so the choice is made inside.)
def pick (b: bool) : f64 -> f64 = \x -> if b then x * x else -x

entry apply_n_ (n: i32) (x: i32) : i32 = apply_n n (\y -> y * 3) x

entry adders (xs: []i32) : ([]i32, []i32) =
  let add10 = adder 10
  in (map add10 xs, map (adder (-1)) (map add10 xs))

entry choose (b: bool) (x: f64) : f64 = pick b x + pick (!b) x

entry fun_record (x: i32) : (i32, i32) =
  let ops = {inc = \(y: i32) -> y + 1, dbl = \(y: i32) -> y * 2}
  let (f, g) = (ops.inc, ops.dbl)
  in (f (g x), g (f x))
