-- pass: simplify
-- run: main [1.0, 2.0] [0i64, 1i64, 1i64] [3.0, 4.0, 5.0] [7.0, 8.0] => [7.0, 8.0] 2i64
-- run: main [1.0, 2.0] [0i64, 1i64, 1i64] [3.0, 4.0, 5.0] [7.0] => error: adjoint
-- A histogram kept only for its size (as AD leaves one behind to check
-- an adjoint's shape against the result's): the size is the
-- destination's, already computed before the histogram consumed it, so
-- the check reads that and the histogram is dead.

entry "main" = main : ([]f64, []i64, []f64, []f64) -> ([]f64, i64)

fun main(dest_0: [?]f64, is_1: [?]i64, vs_2: [?]f64, adj_3: [?]f64): ([?]f64, i64) {
  let m_4: i64 = size(dest_0, 0)
  let n_5: i64 = size(is_1, 0)
  let k_6: i64 = size(adj_3, 0)
  let h_8: [?]f64 = hist(n_5, [dest_0], [is_1], [vs_2], [0.0f64], \(x_9: f64, y_10: f64): f64 {
    let t_11: f64 = add.f64(x_9, y_10)
    in t_11
  })
  let j_12: i64 = size(h_8, 0)
  let c_13: bool = eq.i64(k_6, j_12)
  let () = assert(c_13, "adjoint")
  in (adj_3, m_4)
}
-- expect:
entry "main" = main : ([]f64, []i64, []f64, []f64) -> ([]f64, i64)

fun main(dest_0: [?]f64, is_1: [?]i64, vs_2: [?]f64, adj_3: [?]f64): ([?]f64, i64) {
  let m_4: i64 = size(dest_0, 0)
  let k_6: i64 = size(adj_3, 0)
  let c_13: bool = eq.i64(k_6, m_4)
  let () = assert(c_13, "adjoint")
  in (adj_3, m_4)
}