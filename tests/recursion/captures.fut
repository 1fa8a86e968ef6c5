-- Many local functions, each capturing the ones before it, passed to a
-- recursive higher-order function: each closure becomes parameters once.
-- ==
-- input { 3i64 0i64 } output { 120i64 }

def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =
  if n <= 0 then x else repeat (n - 1) f (f x)

entry main (n: i64) (x: i64) : i64 =
  let f1 (y: i64) = y + 1
  let f2 (y: i64) = f1 y + 1
  let f3 (y: i64) = f2 y + 1
  let f4 (y: i64) = f3 y + 1
  let f5 (y: i64) = f4 y + 1
  let f6 (y: i64) = f5 y + 1
  let f7 (y: i64) = f6 y + 1
  let f8 (y: i64) = f7 y + 1
  let f9 (y: i64) = f8 y + 1
  let f10 (y: i64) = f9 y + 1
  let f11 (y: i64) = f10 y + 1
  let f12 (y: i64) = f11 y + 1
  let f13 (y: i64) = f12 y + 1
  let f14 (y: i64) = f13 y + 1
  let f15 (y: i64) = f14 y + 1
  let f16 (y: i64) = f15 y + 1
  let f17 (y: i64) = f16 y + 1
  let f18 (y: i64) = f17 y + 1
  let f19 (y: i64) = f18 y + 1
  let f20 (y: i64) = f19 y + 1
  let f21 (y: i64) = f20 y + 1
  let f22 (y: i64) = f21 y + 1
  let f23 (y: i64) = f22 y + 1
  let f24 (y: i64) = f23 y + 1
  let f25 (y: i64) = f24 y + 1
  let f26 (y: i64) = f25 y + 1
  let f27 (y: i64) = f26 y + 1
  let f28 (y: i64) = f27 y + 1
  let f29 (y: i64) = f28 y + 1
  let f30 (y: i64) = f29 y + 1
  let f31 (y: i64) = f30 y + 1
  let f32 (y: i64) = f31 y + 1
  let f33 (y: i64) = f32 y + 1
  let f34 (y: i64) = f33 y + 1
  let f35 (y: i64) = f34 y + 1
  let f36 (y: i64) = f35 y + 1
  let f37 (y: i64) = f36 y + 1
  let f38 (y: i64) = f37 y + 1
  let f39 (y: i64) = f38 y + 1
  let f40 (y: i64) = f39 y + 1
  in repeat n (\y -> f40 y) x
