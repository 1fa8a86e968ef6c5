-- pass: simplify
-- run: main [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] => [21i64, 24i64, 27i64] [2.0, 2.0, 2.0] [2.0, 4.0, 6.0] 3i64 2i64
-- run: main empty([0][2]f64) => empty([0]i64) empty([0]f64) empty([0]f64) 0i64 2i64
-- `size` of an array of known shape is that size; an element of `iota`
-- at an index known in range (an element of `iota n` as map parameter)
-- is arithmetic, and so is `replicate`'s; a fully indexed `rearrange`
-- indexes its array with the indices permuted; a row's element is an
-- element of the array.

entry "main" = main : ([][]f64) -> ([]i64, []f64, []f64, i64, i64)

fun main(xss_0: [?][2]f64): ([?]i64, [?]f64, [?]f64, i64, i64) {
  let n_1: i64 = size(xss_0, 0)
  let m_2: i64 = size(xss_0, 1)
  let is_3: [n_1]i64 = iota.i64(n_1, 0i64, 1i64)
  let js_4: [n_1]i64 = iota.i64(n_1, 7i64, 1i64)
  let rs_5: [n_1]f64 = replicate(n_1, 2.0f64)
  let ts_6: [2][n_1]f64 = rearrange([1, 0], xss_0)
  let (a_11: [n_1]i64, b_12: [n_1]f64, c_13: [n_1]f64) = map(n_1, [is_3], \(i_7: i64): (i64, f64, f64) {
    let j_8: i64 = js_4[i_7]
    let k_9: i64 = mul.i64(j_8, 3i64)
    let r_10: f64 = rs_5[i_7]
    let row_14: [n_1]f64 = ts_6[1i64]
    let t_15: f64 = row_14[i_7]
    in (k_9, r_10, t_15)
  })
  in (a_11, b_12, c_13, n_1, m_2)
}
-- expect:
entry "main" = main : ([][]f64) -> ([]i64, []f64, []f64, i64, i64)

fun main(xss_0: [?][2]f64): ([?]i64, [?]f64, [?]f64, i64, i64) {
  let n_1: i64 = size(xss_0, 0)
  let is_3: [n_1]i64 = iota.i64(n_1, 0i64, 1i64)
  let rs_5: [n_1]f64 = replicate(n_1, 2.0f64)
  let (a_11: [n_1]i64, c_13: [n_1]f64) = map(n_1, [is_3], \(i_7: i64): (i64, f64) {
    let j_8: i64 = add.i64(7i64, i_7)
    let k_9: i64 = mul.i64(j_8, 3i64)
    let t_15: f64 = xss_0[i_7, 1i64]
    in (k_9, t_15)
  })
  in (a_11, rs_5, c_13, n_1, 2i64)
}
