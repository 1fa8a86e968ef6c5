-- Recursion over arrays: a sum by halving (size-polymorphic recursion:
-- each call has its own size), a quicksort that partitions and recurses
-- on both parts, a recursive function mapped over an array, and a
-- recursive function returning an array whose size it names.
-- ==
-- entry: halving_sum
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] } output { 15i32 }
-- input { [7i32] } output { 7i32 }
-- input { empty([0]i32) } output { 0i32 }
-- input { [1i32, -2i32, 3i32, -4i32, 5i32, -6i32, 7i32, -8i32, 9i32] } output { 5i32 }
-- entry: sort
-- input { [5i32, 3i32, 9i32, 1i32, 3i32, 8i32, 0i32, -2i32] }
-- output { [-2i32, 0i32, 1i32, 3i32, 3i32, 5i32, 8i32, 9i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- input { [4i32, 4i32, 4i32] } output { [4i32, 4i32, 4i32] }
-- entry: depths
-- input { [0i64, 1i64, 2i64, 3i64, 4i64] } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- entry: countdown_
-- input { 4i64 } output { [3i64, 2i64, 1i64, 0i64] }
-- input { 0i64 } output { empty([0]i64) }

def sum [n] (xs: [n]i32) : i32 =
  if n == 0 then 0
  else if n == 1 then xs[0]
  else let h = n / 2
       in sum (take h xs) + sum (drop h xs)

def quicksort [n] (xs: [n]i32) : [n]i32 =
  if n <= 1 then xs
  else let p = xs[0]
       let (lt, rest) = partition (< p) (drop 1 xs)
       let (eq, gt) = partition (== p) rest
       in sized n (quicksort lt ++ [p] ++ eq ++ quicksort gt)

-- The recursion happens inside a map inside the recursive function.
def depth (n: i64) : i64 =
  if n <= 0 then 0 else 1 + i64.maximum (map depth (iota n))

def countdown (n: i64) : [n]i64 =
  if n <= 0 then [] :> [n]i64
  else sized n ([n - 1] ++ countdown (n - 1))

entry halving_sum [n] (xs: [n]i32) : i32 = sum xs

entry sort [n] (xs: [n]i32) : [n]i32 = quicksort xs

entry depths [n] (xs: [n]i64) : [n]i64 = map depth xs

entry countdown_ (n: i64) : []i64 = countdown n
