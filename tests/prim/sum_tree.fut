-- Reductions combine their elements in a balanced tree, as a parallel
-- reduction does, so that a long f32 sum keeps a small rounding error: a
-- left-to-right sum of 2^25 ones stops at 2^24, and one of 2^20 tenths is
-- off by 0.4%. Operators that are associative but not commutative still
-- combine their elements in order. (The parallel C backend still sums a
-- mapped array and histogram buckets from left to right: those cases are
-- `no_multicore`; the sequential `c` backend sums everything from left to
-- right, as Futhark's does: `no_c`.)
-- ==
-- entry: ones ones_comm
-- no_c input { 33554432i64 } output { 33554432f32 }
-- entry: tenths
-- no_c no_multicore input { 1048576i64 } output { 157286.4f32 }
-- input { 0i64 } output { 0f32 }
-- entry: hist_tenths
-- no_c no_multicore input { 1048576i64 } output { [52428.8f32, 52428.8f32] }
-- entry: red_affine
-- input { 10000i64 } output { 1943152531149729513i64 -4795955278428810806i64 }
-- input { 0i64 } output { 1i64 0i64 }
-- entry: hist_affine
-- input { 10000i64 }
-- output { [-7183414915974547321i64, -8349104699334677885i64, -7766259807654612603i64]
--          [-4506144254568893343i64, -6933274505258040937i64, -3453262796545206680i64] }
-- entry: matprod
-- input { 3000i64 }
-- output { [[2240134472801837145i64, 5433459594472610496i64],
--           [4697981484754455824i64, 7418560988896211945i64]] }

entry ones (n: i64) : f32 = f32.sum (replicate n 1f32)

entry ones_comm (n: i64) : f32 = reduce_comm (+) 0f32 (replicate n 1f32)

entry tenths (n: i64) : f32 =
  f32.sum (map (\i -> f32.i64 (i % 2 + 1) * 0.1f32) (iota n))

entry hist_tenths (n: i64) : [2]f32 =
  hist (+) 0f32 2 (map (% 2) (iota n)) (replicate n 0.1f32)

-- Affine maps x -> a*x + b, composed in order.
def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) =
  (a1 * a2, b1 * a2 + b2)

def affine (i: i64) : (i64, i64) = (2 * (i % 7) + 1, i)

entry red_affine (n: i64) : (i64, i64) =
  reduce compose (1, 0) (map affine (iota n))

entry hist_affine (n: i64) : ([3]i64, [3]i64) =
  unzip (hist compose (1, 0) 3 (map (% 3) (iota n)) (map affine (iota n)))

-- Products of 2x2 matrices of determinant 1 (which do not commute).
def matmul2 (a: [2][2]i64) (b: [2][2]i64) : [2][2]i64 =
  [[a[0,0] * b[0,0] + a[0,1] * b[1,0], a[0,0] * b[0,1] + a[0,1] * b[1,1]],
   [a[1,0] * b[0,0] + a[1,1] * b[1,0], a[1,0] * b[0,1] + a[1,1] * b[1,1]]]

entry matprod (n: i64) : [2][2]i64 =
  let m i = let (p, q) = (i % 5 + 1, i % 4) in [[1, p], [q, 1 + p * q]]
  in reduce matmul2 [[1, 0], [0, 1]] (map m (iota n))
