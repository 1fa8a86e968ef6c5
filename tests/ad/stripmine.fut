-- #[stripmine(k)] splits a `for` loop into k nested loops for reverse AD
-- (less memory for checkpoints, more recomputation); the results and the
-- derivatives are those of the plain loop. f(x) = x^(n+1) by repeated
-- products with x carried in the state: f'(x) = (n+1)·x^n.
-- ==
-- entry: plain strip2 strip3 strip40
-- input { 1.5 0i64 } output { 1.5 1.0 }
-- input { 1.5 1i64 } output { 2.25 3.0 }
-- input { 1.0 7i64 } output { 1.0 8.0 }
-- input { 1.01 100i64 } output { 2.731861967715744 273.1861967715744 }

def power (n: i64) (x: f64) : f64 =
  loop y = x for _i < n do y * x

def power2 (n: i64) (x: f64) : f64 =
  #[stripmine(2)] loop y = x for _i < n do y * x

def power3 (n: i64) (x: f64) : f64 =
  #[stripmine(3)] loop y = x for i < n do y * x + 0 * f64.i64 i

entry plain (x: f64) (n: i64) : (f64, f64) = vjp2 (power n) x 1
entry strip2 (x: f64) (n: i64) : (f64, f64) = vjp2 (power2 n) x 1
entry strip3 (x: f64) (n: i64) : (f64, f64) = (power3 n x, jvp (power3 n) x 1)

-- more levels than the loop has iterations: the extra levels run once
def power40 (n: i64) (x: f64) : f64 =
  #[stripmine(40)] loop y = x for _i < n do y * x

entry strip40 (x: f64) (n: i64) : (f64, f64) = vjp2 (power40 n) x 1

-- an array state updated in place at the loop index (prefix sums; the
-- gradient of their sum counts how many sums each element is in): the index must be the
-- original one in every strip
-- ==
-- entry: prefix
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] } output { [5.0, 4.0, 3.0, 2.0, 1.0] }
entry prefix [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = #[stripmine(2)] loop ys = copy xs for i < n - 1 do ys with [i + 1] = ys[i] + ys[i + 1]
              in f64.sum ys) xs 1
