-- reduce_by_index into an existing destination array with several
-- operators, including a tuple argmin; out-of-bounds indices are ignored.
-- ==
-- entry: rbi_add
-- input { [10i32, 20i32, 30i32] [0i64, 2i64, 2i64, 3i64, -1i64] [1i32, 2i32, 3i32, 4i32, 5i32] } output { [11i32, 20i32, 35i32] }
-- entry: rbi_mul
-- input { [1.0f64, 2.0f64] [1i64, 1i64, 0i64, 1i64] [3.0f64, 0.5f64, -4.0f64, 2.0f64] } output { [-4.0f64, 6.0f64] }
-- entry: rbi_min
-- input { [5i32, 5i32, 5i32, 5i32] [3i64, 1i64, 3i64, 7i64] [9i32, -1i32, 2i32, -100i32] } output { [5i32, -1i32, 5i32, 2i32] }
-- entry: rbi_argmin
-- input { 3i64 [0i64, 2i64, 0i64, 0i64, 2i64, 9i64] [4.0f64, 1.5f64, 2.0f64, 2.0f64, 7.0f64, -9.0f64] } output { [2.0f64, f64.inf, 1.5f64] [2i64, -1i64, 1i64] }

entry rbi_add [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) : []i32 =
  reduce_by_index dest (+) 0 is vs

entry rbi_mul [n] (dest: *[]f64) (is: [n]i64) (vs: [n]f64) : []f64 =
  reduce_by_index dest (*) 1.0 is vs

entry rbi_min [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) : []i32 =
  reduce_by_index dest i32.min i32.highest is vs

def argmin_op (v1: f64, i1: i64) (v2: f64, i2: i64) : (f64, i64) =
  if v1 < v2 then (v1, i1)
  else if v2 < v1 then (v2, i2)
  else (v1, i64.min i1 i2)

entry rbi_argmin [n] (k: i64) (is: [n]i64) (vs: [n]f64) : ([]f64, []i64) =
  let dest = replicate k (f64.inf, -1i64)
  in unzip (reduce_by_index dest argmin_op (f64.inf, -1) is (zip vs (iota n)))
