-- pass: simplify
-- run: main [[1.0, 2.0], [3.0, 4.0]] [0.5, 0.25] => [[1.5, 2.25], [3.5, 4.25]]
-- run: main empty([0][2]f64) [0.5, 0.25] => empty([0][2]f64)
-- The size of `ys_1` read in every row moves before the map, where it is
-- the size read there already.

entry "main" = main : ([][]f64, []f64) -> ([][]f64)

fun main(xss_0: [?][?]f64, ys_1: [?]f64): [?][?]f64 {
  let n_3: i64 = size(xss_0, 0)
  let m_2: i64 = size(ys_1, 0)
  let r_10: [n_3][m_2]f64 = map(n_3, [xss_0], \(xs_4: [?]f64): [m_2]f64 {
    let k_5: i64 = size(ys_1, 0)
    let zs_9: [k_5]f64 = map(k_5, [xs_4, ys_1], \(x_6: f64, y_7: f64): f64 {
      let t_8: f64 = add.f64(x_6, y_7)
      in t_8
    })
    in zs_9
  })
  in r_10
}
-- expect:
entry "main" = main : ([][]f64, []f64) -> [][]f64

fun main(xss_0: [?][?]f64, ys_1: [?]f64): [?][?]f64 {
  let n_3: i64 = size(xss_0, 0)
  let m_2: i64 = size(ys_1, 0)
  let r_10: [n_3][m_2]f64 = map(n_3, [xss_0], \(xs_4: [?]f64): [m_2]f64 {
    let zs_9: [m_2]f64 = map(m_2, [xs_4, ys_1], \(x_6: f64, y_7: f64): f64 {
      let t_8: f64 = add.f64(x_6, y_7)
      in t_8
    })
    in zs_9
  })
  in r_10
}
