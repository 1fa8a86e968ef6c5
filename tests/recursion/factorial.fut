-- Direct recursion on scalars: factorial and Fibonacci (two recursive
-- calls per call), a function without a declared return type, and a
-- recursive function called from two entry points and from a map.
-- ==
-- entry: fact_
-- input { 0i64 } output { 1i64 }
-- input { 1i64 } output { 1i64 }
-- input { 10i64 } output { 3628800i64 }
-- input { 20i64 } output { 2432902008176640000i64 }
-- input { -3i64 } output { 1i64 }
-- entry: fib_
-- input { 0i32 } output { 0i32 }
-- input { 1i32 } output { 1i32 }
-- input { 2i32 } output { 1i32 }
-- input { 10i32 } output { 55i32 }
-- input { 20i32 } output { 6765i32 }
-- entry: fibs
-- input { 8i64 } output { [0i32, 1i32, 1i32, 2i32, 3i32, 5i32, 8i32, 13i32] }
-- input { 0i64 } output { empty([0]i32) }
-- entry: collatz
-- input { 1i64 } output { 0i64 }
-- input { 6i64 } output { 8i64 }
-- input { 27i64 } output { 111i64 }

def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)

-- No return type: it is inferred, and the recursive calls use it.
def fib (n: i32) = if n <= 1 then i32.max n 0 else fib (n - 1) + fib (n - 2)

-- The number of steps to reach 1 (inputs are at least 1).
def steps (n: i64) (acc: i64) : i64 =
  if n <= 1 then acc
  else if n % 2 == 0 then steps (n / 2) (acc + 1)
  else steps (3 * n + 1) (acc + 1)

entry fact_ (n: i64) : i64 = fact n

entry fib_ (n: i32) : i32 = fib n

entry fibs (n: i64) : []i32 = map (\i -> fib (i32.i64 i)) (iota n)

entry collatz (n: i64) : i64 = steps n 0
