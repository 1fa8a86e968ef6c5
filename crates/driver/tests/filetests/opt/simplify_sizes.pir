-- pass: simplify
-- run: main [[1.0, 2.0], [3.0, 4.0]] => [[2.0, 3.0], [4.0, 5.0]] 2i64 true
-- run: main empty([0][3]f64) => error: rows differ
-- The map's width is `n_1`: its result type says so, and `size` of it
-- folds, and so does the check against it. Its rows are left open: a
-- map of width 0 has rows of length 0 whatever the lambda says (so the
-- second check fails on an empty input). `(m + 1) - 1` is `m`; a size
-- is at least zero.

entry "main" = main : ([][]f64) -> ([][]f64, i64, bool)

fun main(xss_0: [?][?]f64): ([?][?]f64, i64, bool) {
  let n_1: i64 = size(xss_0, 0)
  let m_2: i64 = size(xss_0, 1)
  let ys_7: [?][?]f64 = map(n_1, [xss_0], \(xs_3: [?]f64): [?]f64 {
    let zs_6: [m_2]f64 = map(m_2, [xs_3], \(x_4: f64): f64 {
      let t_5: f64 = add.f64(x_4, 1.0f64)
      in t_5
    })
    in zs_6
  })
  let j_14: i64 = size(ys_7, 0)
  let c_15: bool = eq.i64(j_14, n_1)
  let () = assert(c_15, "outer sizes differ")
  let k_8: i64 = size(ys_7, 1)
  let c_9: bool = eq.i64(k_8, m_2)
  let () = assert(c_9, "rows differ")
  let a_10: i64 = add.i64(m_2, 1i64)
  let b_11: i64 = sub.i64(a_10, 1i64)
  let d_12: i64 = max.i64(b_11, 0i64)
  let e_13: bool = le.i64(0i64, d_12)
  in (ys_7, d_12, e_13)
}
-- expect:
entry "main" = main : ([][]f64) -> ([][]f64, i64, bool)

fun main(xss_0: [?][?]f64): ([?][?]f64, i64, bool) {
  let n_1: i64 = size(xss_0, 0)
  let m_2: i64 = size(xss_0, 1)
  let ys_7: [n_1][?]f64 = map(n_1, [xss_0], \(xs_3: [?]f64): [?]f64 {
    let zs_6: [m_2]f64 = map(m_2, [xs_3], \(x_4: f64): f64 {
      let t_5: f64 = add.f64(x_4, 1.0f64)
      in t_5
    })
    in zs_6
  })
  let k_8: i64 = size(ys_7, 1)
  let c_9: bool = eq.i64(k_8, m_2)
  let () = assert(c_9, "rows differ")
  in (ys_7, m_2, true)
}
