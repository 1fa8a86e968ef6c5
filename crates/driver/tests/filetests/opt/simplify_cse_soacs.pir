-- pass: simplify
-- run: main [1.0, 2.0, 3.0] => [2.0, 4.0, 6.0] [2.0, 4.0, 6.0] [0.0, 4.0, 6.0] [4.0, 8.0, 12.0]
-- Whole statements are shared: the second map (equal up to the names
-- its lambda binds) is the first. The third is not: its result is
-- updated in place, and the first is still used afterwards.

entry "main" = main : ([]f64) -> ([]f64, []f64, []f64, []f64)

fun main(xs_0: [?]f64): ([?]f64, [?]f64, [?]f64, [?]f64) {
  let n_1: i64 = size(xs_0, 0)
  let a_4: [n_1]f64 = map(n_1, [xs_0], \(x_2: f64): f64 {
    let t_3: f64 = mul.f64(x_2, 2.0f64)
    in t_3
  })
  let b_7: [n_1]f64 = map(n_1, [xs_0], \(x_5: f64): f64 {
    let t_6: f64 = mul.f64(x_5, 2.0f64)
    in t_6
  })
  let c_10: [n_1]f64 = map(n_1, [xs_0], \(x_8: f64): f64 {
    let t_9: f64 = mul.f64(x_8, 2.0f64)
    in t_9
  })
  let d_11: [n_1]f64 = c_10 with [0i64] = 0.0f64
  let e_14: [n_1]f64 = map(n_1, [a_4, b_7], \(x_12: f64, y_15: f64): f64 {
    let t_13: f64 = add.f64(x_12, y_15)
    in t_13
  })
  in (a_4, b_7, d_11, e_14)
}
-- expect:
entry "main" = main : ([]f64) -> ([]f64, []f64, []f64, []f64)

fun main(xs_0: [?]f64): ([?]f64, [?]f64, [?]f64, [?]f64) {
  let n_1: i64 = size(xs_0, 0)
  let a_4: [n_1]f64 = map(n_1, [xs_0], \(x_2: f64): f64 {
    let t_3: f64 = mul.f64(x_2, 2.0f64)
    in t_3
  })
  let c_10: [n_1]f64 = map(n_1, [xs_0], \(x_8: f64): f64 {
    let t_9: f64 = mul.f64(x_8, 2.0f64)
    in t_9
  })
  let d_11: [n_1]f64 = c_10 with [0i64] = 0.0f64
  let e_14: [n_1]f64 = map(n_1, [a_4, a_4], \(x_12: f64, y_15: f64): f64 {
    let t_13: f64 = add.f64(x_12, y_15)
    in t_13
  })
  in (a_4, a_4, d_11, e_14)
}
