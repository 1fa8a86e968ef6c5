-- Sizes that are top-level constants (`def A = 3i64`) or arithmetic of
-- them: `unflatten` to `[A][B]` from a parameter's type, from a coercion,
-- from the declared result alone, from another constant, and through
-- `replicate` and `tabulate`.
-- ==
-- entry: from_param from_coercion from_result
-- input { [1f64, 2f64, 3f64, 4f64, 5f64, 6f64, 7f64, 8f64, 9f64, 10f64, 11f64, 12f64] }
-- output { [[1f64, 2f64, 3f64, 4f64], [5f64, 6f64, 7f64, 8f64], [9f64, 10f64, 11f64, 12f64]] }
-- entry: from_coercion from_result
-- input { [1f64, 2f64, 3f64, 4f64, 5f64, 6f64] } error: [Ss]ize|[Ss]hape
-- entry: derived
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] } output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- entry: filled
-- input { 2.5f64 } output { [[2.5f64, 2.5f64, 2.5f64, 2.5f64], [2.5f64, 2.5f64, 2.5f64, 2.5f64], [2.5f64, 2.5f64, 2.5f64, 2.5f64]] }
-- entry: table
-- input { } output { [[0i64, 1i64, 2i64, 3i64], [4i64, 5i64, 6i64, 7i64], [8i64, 9i64, 10i64, 11i64]] }

def A = 3i64
def B = 4i64
def AB: i64 = A * B
def C = B - 2

entry from_param (xs: [A * B]f64) : [A][B]f64 = unflatten xs

entry from_coercion (xs: []f64) : [][]f64 = unflatten (xs :> [A * B]f64)

entry from_result (xs: []f64) : [A][B]f64 = unflatten (xs :> [AB]f64)

entry derived (xs: []i32) : [A][C]i32 = unflatten (xs :> [A * C]i32)

entry filled (x: f64) : [A][B]f64 = unflatten (replicate AB x)

entry table : [A][B]i64 = unflatten (tabulate (A * B) (\i -> i))
