-- In-place updates: `let a[i] = v`, `a with [i] = v`, two-dimensional
-- element and row updates, and slice updates, inside and outside loops.
-- ==
-- entry: squares_inplace
-- input { 5i64 } output { [0i64, 1i64, 4i64, 9i64, 16i64] }
-- entry: with_update
-- input { [1i32, 2i32, 3i32] 1i64 9i32 } output { [1i32, 9i32, 3i32] }
-- entry: update_2d
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[1i32, 20i32], [41i32, 40i32]] }
-- entry: slice_update
-- input { [0i32, 0i32, 0i32, 0i32, 0i32] } output { [0i32, 7i32, 8i32, 9i32, 10i32] }
-- entry: bubble_sort
-- input { [5i32, 1i32, 4i32, 2i32, 8i32, 0i32] } output { [0i32, 1i32, 2i32, 4i32, 5i32, 8i32] }
-- input { [1i32] } output { [1i32] }
-- entry: sieve
-- input { 20i64 } output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64] }

entry squares_inplace (n: i64) : []i64 =
  loop a = replicate n 0 for i < n do
    let a[i] = i * i
    in a

entry with_update (xs: *[]i32) (i: i64) (v: i32) : []i32 = xs with [i] = v

entry update_2d (m: *[][]i32) : [][]i32 =
  let m[0, 1] = 20
  let m[1] = map (* 10) m[1]
  in m with [1, 0] = m[0, 0] + m[1, 1]

entry slice_update (xs: *[]i32) : []i32 =
  let xs[1:3] = [7, 8]
  in xs with [3:5] = [9, 10]

entry bubble_sort [n] (xs: *[n]i32) : [n]i32 =
  loop a = xs for i < n do
    loop a for j < n - 1 - i do
      if a[j] > a[j + 1]
      then let t = a[j]
           let a[j] = a[j + 1]
           let a[j + 1] = t
           in a
      else a

-- Sieve of Eratosthenes; returns the primes below n (n >= 2).
entry sieve (n: i64) : []i64 =
  let p0 = replicate n true
  let p0[0] = false
  let p0[1] = false
  let is_prime =
    loop p = p0 for i < n do
      if p[i] && i * i < n
      then loop p for j in (i * i)..(i * i + i)..<n do p with [j] = false
      else p
  in filter (\i -> is_prime[i]) (iota n)
