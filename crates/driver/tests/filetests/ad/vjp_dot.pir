-- pass: differentiate simplify
-- run: main [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] => 32.0 [4.0, 5.0, 6.0] [1.0, 2.0, 3.0]
-- vjp of a dot product (map then reduce with +): the reduction's adjoint
-- is replicated, and the map's adjoints are the other vector times it.

entry "main" = main : ([]f64, []f64) -> (f64, []f64, []f64)

fun main(xs_0: [?]f64, ys_1: [?]f64): (f64, [?]f64, [?]f64) {
  let (d_2: f64, dxs_3: [?]f64, dys_4: [?]f64) = vjp(\(as_5: [?]f64, bs_6: [?]f64): f64 {
    let n_7: i64 = size(as_5, 0)
    let p_8: [n_7]f64 = map(n_7, [as_5, bs_6], \(a_9: f64, b_10: f64): f64 {
      let t_11: f64 = mul.f64(a_9, b_10)
      in t_11
    })
    let s_12: f64 = reduce_comm(n_7, [p_8], [0.0f64], \(u_13: f64, v_14: f64): f64 {
      let t_15: f64 = add.f64(u_13, v_14)
      in t_15
    })
    in s_12
  }, [xs_0, ys_1], [1.0f64])
  in (d_2, dxs_3, dys_4)
}
-- expect:
entry "main" = main : ([]f64, []f64) -> (f64, []f64, []f64)

fun main(xs_0: [?]f64, ys_1: [?]f64): (f64, [?]f64, [?]f64) {
  let n_18: i64 = size(xs_0, 0)
  let p_22: [n_18]f64 = map(n_18, [xs_0, ys_1], \(a_19: f64, b_20: f64): f64 {
    let t_21: f64 = mul.f64(a_19, b_20)
    in t_21
  })
  let s_26: f64 = reduce_comm(n_18, [p_22], [0.0f64], \(u_23: f64, v_24: f64): f64 {
    let t_25: f64 = add.f64(u_23, v_24)
    in t_25
  })
  let t_27: [n_18]f64 = replicate(n_18, 1.0f64)
  let (adj_34: [n_18]f64, adj_35: [n_18]f64) = map(n_18, [xs_0, ys_1, t_27], \(a_28: f64, b_29: f64, adj_30: f64): (f64, f64) {
    let t_32: f64 = mul.f64(b_29, adj_30)
    let t_33: f64 = mul.f64(a_28, adj_30)
    in (t_32, t_33)
  })
  in (s_26, adj_34, adj_35)
}
