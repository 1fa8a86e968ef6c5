-- for loops with scalar and tuple state.
-- ==
-- entry: sum_to
-- input { 10i64 } output { 45i64 }
-- input { 0i64 } output { 0i64 }
-- entry: factorial
-- input { 5i32 } output { 120i32 }
-- input { 13i32 } output { 1932053504i32 }
-- entry: fib
-- input { 10i32 } output { 55i64 }
-- input { 1i32 } output { 1i64 }
-- input { 90i32 } output { 2880067194370816120i64 }
-- entry: small_counter
-- input { 4i32 } output { 14i32 0.0625f64 }

entry sum_to (n: i64) : i64 = loop s = 0 for i < n do s + i

entry factorial (n: i32) : i32 = loop acc = 1 for i < n do acc * (i + 1)

-- The i32 bound makes the loop variable an i32.
entry fib (n: i32) : i64 =
  let (a, _) = loop (a, b) = (0i64, 1i64) for _i < n do (b, a + b)
  in a

entry small_counter (n: i32) : (i32, f64) =
  loop (c, x) = (0, 1.0) for i < n do (c + i * i, x / 2.0)
