-- Inclusive scan with scalar operators and with non-commutative tuple
-- operators: composition of affine maps (a linear recurrence) and a
-- segmented sum driven by segment-start flags.
-- ==
-- entry: scan_add
-- input { [1i32, 2i32, 3i32, 4i32] } output { [1i32, 3i32, 6i32, 10i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- entry: scan_mul_max
-- input { [2i32, -1i32, 3i32, 5i32, -2i32] } output { [2i32, -2i32, -6i32, -30i32, 60i32] [2i32, 2i32, 3i32, 5i32, 5i32] }
-- entry: linrec
-- input { [0.5f64, 2.0f64, -1.0f64, 0.5f64] [1.0f64, 3.0f64, 0.25f64, -2.0f64] } output { [1.0f64, 5.0f64, -4.75f64, -4.375f64] }
-- entry: segscan
-- input { [true, false, false, true, false, true] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [1i32, 3i32, 6i32, 4i32, 9i32, 6i32] }
-- input { [false, false, true] [1i32, 1i32, 1i32] } output { [1i32, 2i32, 1i32] }

entry scan_add (xs: []i32) : []i32 = scan (+) 0 xs

entry scan_mul_max (xs: []i32) : ([]i32, []i32) =
  (scan (*) 1 xs, scan i32.max i32.lowest xs)

-- y[i] = a[i] * y[i-1] + b[i], starting from y[-1] = 0.
entry linrec [n] (as: [n]f64) (bs: [n]f64) : []f64 =
  let op (a1: f64, b1: f64) (a2: f64, b2: f64) : (f64, f64) = (a1 * a2, b1 * a2 + b2)
  in map (.1) (scan op (1.0, 0.0) (zip as bs))

entry segscan [n] (flags: [n]bool) (xs: [n]i32) : []i32 =
  let op (f1: bool, x1: i32) (f2: bool, x2: i32) : (bool, i32) =
    (f1 || f2, if f2 then x2 else x1 + x2)
  in map (.1) (scan op (false, 0) (zip flags xs))
