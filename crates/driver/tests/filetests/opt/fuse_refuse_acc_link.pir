-- pass: fuse
-- run: main [1.0, 2.0, 3.0] [0i64, 0i64, 2i64] => [5.0, 0.0, 4.0]
-- Refused: the second map takes the accumulator the first returns (fusing
-- would interleave their updates, which matters where they overwrite).

entry "main" = main : ([]f64, []i64) -> []f64

fun main(xs_0: [?]f64, is_1: [?]i64): [?]f64 {
  let n_2: i64 = size(xs_0, 0)
  let z_3: [n_2]f64 = replicate(n_2, 0.0f64)
  let r_4: [n_2]f64 = withacc(
    {[n_2], [z_3], [0.0f64], \(a_5: f64, b_6: f64): f64 {
      let t_7: f64 = add.f64(a_5, b_6)
      in t_7
    }},
    \(acc_8: acc([n_2], f64)): acc([n_2], f64) {
      let m_9: acc([n_2], f64) = map(n_2, [is_1, xs_0, acc_8], \(i_10: i64, x_11: f64, a_12: acc([n_2], f64)): acc([n_2], f64) {
        let u_13: acc([n_2], f64) = upd(a_12, [i_10], [x_11])
        in u_13
      })
      let m_14: acc([n_2], f64) = map(n_2, [is_1, m_9], \(i_15: i64, a_16: acc([n_2], f64)): acc([n_2], f64) {
        let u_17: acc([n_2], f64) = upd(a_16, [i_15], [1.0f64])
        in u_17
      })
      in m_14
    }
  )
  in r_4
}
-- expect:
entry "main" = main : ([]f64, []i64) -> []f64

fun main(xs_0: [?]f64, is_1: [?]i64): [?]f64 {
  let n_2: i64 = size(xs_0, 0)
  let z_3: [n_2]f64 = replicate(n_2, 0.0f64)
  let r_4: [n_2]f64 = withacc(
    {[n_2], [z_3], [0.0f64], \(a_5: f64, b_6: f64): f64 {
      let t_7: f64 = add.f64(a_5, b_6)
      in t_7
    }},
    \(acc_8: acc([n_2], f64)): acc([n_2], f64) {
      let m_9: acc([n_2], f64) = map(n_2, [is_1, xs_0, acc_8], \(i_10: i64, x_11: f64, a_12: acc([n_2], f64)): acc([n_2], f64) {
        let u_13: acc([n_2], f64) = upd(a_12, [i_10], [x_11])
        in u_13
      })
      let m_14: acc([n_2], f64) = map(n_2, [is_1, m_9], \(i_15: i64, a_16: acc([n_2], f64)): acc([n_2], f64) {
        let u_17: acc([n_2], f64) = upd(a_16, [i_15], [1.0f64])
        in u_17
      })
      in m_14
    }
  )
  in r_4
}
