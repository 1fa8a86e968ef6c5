-- pass: simplify
-- run: main [1.0, 2.0] 3i32 => [1.0, 2.0] [4.5, 4.5] [3.0, 3.0] 6i32
-- run: main empty([0]f64) 3i32 => empty([0]f64) empty([0]f64) empty([0]f64) 0i32
-- A map returning its element is its array; one returning an outside
-- operand is a replicate; a map over replicates of a lambda that cannot
-- fail is the lambda applied once, replicated; an integer sum of a
-- replicate is a product.

entry "main" = main : ([]f64, i32) -> ([]f64, []f64, []f64, i32)

fun main(xs_0: [?]f64, k_1: i32): ([?]f64, [?]f64, [?]f64, i32) {
  let n_2: i64 = size(xs_0, 0)
  let (a_5: [n_2]f64, b_6: [n_2]f64) = map(n_2, [xs_0], \(x_3: f64): (f64, f64) {
    in (x_3, 3.0f64)
  })
  let rs_7: [n_2]f64 = replicate(n_2, 1.5f64)
  let c_10: [n_2]f64 = map(n_2, [rs_7, b_6], \(r_8: f64, s_11: f64): f64 {
    let t_9: f64 = mul.f64(r_8, s_11)
    in t_9
  })
  let ks_12: [n_2]i32 = replicate(n_2, k_1)
  let s_16: i32 = reduce_comm(n_2, [ks_12], [0i32], \(x_13: i32, y_14: i32): i32 {
    let t_15: i32 = add.i32(x_13, y_14)
    in t_15
  })
  in (a_5, c_10, b_6, s_16)
}
-- expect:
entry "main" = main : ([]f64, i32) -> ([]f64, []f64, []f64, i32)

fun main(xs_0: [?]f64, k_1: i32): ([?]f64, [?]f64, [?]f64, i32) {
  let n_2: i64 = size(xs_0, 0)
  let b_6: [n_2]f64 = replicate(n_2, 3.0f64)
  let c_10: [n_2]f64 = replicate(n_2, 4.5f64)
  let n_17: i32 = cast.i64.i32(n_2)
  let s_16: i32 = mul.i32(n_17, k_1)
  in (xs_0, c_10, b_6, s_16)
}
