-- Recursive higher-order functions: each use is specialised to its
-- function arguments, which the recursive calls pass on unchanged. The
-- functions capture local variables of the caller (passed to the
-- specialisation as further arguments), a recursive function is called
-- with two different functions, from inside a lambda and a local
-- function, partially applied outside its own definition, and passed to
-- `map`.
-- ==
-- entry: repeats
-- input { 4i64 2i64 10i64 } output { 14i64 32i64 }
-- input { 0i64 2i64 10i64 } output { 2i64 2i64 }
-- entry: iterate
-- input { 4i64 3.0f64 } output { 48.0f64 }
-- input { 0i64 3.0f64 } output { 3.0f64 }
-- entry: nested
-- input { 3i64 5i64 } output { 77i64 }
-- input { 0i64 5i64 } output { 0i64 }
-- entry: partial
-- input { [1i64, 2i64, 3i64] } output { [4i64, 5i64, 6i64] }
-- entry: fold_tree
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] } output { 15i32 120i32 }

def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =
  if n <= 0 then x else repeat (n - 1) f (f x)

def until 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  if p x then x else until p f (f x)

-- The recursive call is inside a local function and a lambda.
def walk (g: i64 -> i64) (n: i64) : i64 =
  let step (i: i64) = g i + walk g (n - 1)
  in if n <= 0 then 0 else i64.sum (map (\i -> step i) (iota 2))

def add (n: i64) (x: i64) : i64 = if n <= 0 then x else add (n - 1) (x + 1)

-- A reduction by halving with any associative operator.
def tree [n] (op: i32 -> i32 -> i32) (ne: i32) (xs: [n]i32) : i32 =
  if n == 0 then ne
  else if n == 1 then xs[0]
  else op (tree op ne (take (n / 2) xs)) (tree op ne (drop (n / 2) xs))

entry repeats (n: i64) (x: i64) (k: i64) : (i64, i64) =
  (repeat n (\y -> y + k - 7) x, repeat n (\y -> y * 2) x)

entry iterate (n: i64) (x: f64) : f64 =
  (until (\(i, _) -> i >= n) (\(i, y) -> (i + 1, y * 2)) (0, x)).1

entry nested (n: i64) (k: i64) : i64 = walk (\x -> x + k) n

entry partial [n] (xs: [n]i64) : [n]i64 = map (add 3) xs

entry fold_tree [n] (xs: [n]i32) : (i32, i32) = (tree (+) 0 xs, tree (*) 1 xs)
