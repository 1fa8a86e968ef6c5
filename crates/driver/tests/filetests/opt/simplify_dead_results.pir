-- pass: simplify
-- run: main [1.0, 2.0, 3.0] 4i64 => [2.0, 3.0, 4.0] 1.0 12i64
-- run: main empty([0]f64) 0i64 => empty([0]f64) 2.0 0i64
-- Unused results go: the map's second result, the if's first, and the
-- loop parameter `p_21` that only feeds itself (while `q_22`, which the
-- result needs, and `r_23`, which `q_22` needs, stay).

entry "main" = main : ([]f64, i64) -> ([]f64, f64, i64)

fun main(xs_0: [?]f64, k_1: i64): ([?]f64, f64, i64) {
  let n_2: i64 = size(xs_0, 0)
  let (a_6: [n_2]f64, b_7: [n_2]f64) = map(n_2, [xs_0], \(x_3: f64): (f64, f64) {
    let t_4: f64 = add.f64(x_3, 1.0f64)
    let t_5: f64 = mul.f64(x_3, 3.0f64)
    in (t_4, t_5)
  })
  let c_8: bool = lt.i64(0i64, n_2)
  let (u_9: f64, v_10: f64) = if c_8 : (f64, f64) then {
    let w_11: f64 = xs_0[0i64]
    in (w_11, w_11)
  } else {
    in (3.0f64, 2.0f64)
  }
  let (p_24: i64, q_25: i64, r_26: i64) = loop (p_21: i64 = 1i64, q_22: i64 = 0i64, r_23: i64 = 0i64) for i_20: i64 < k_1 {
    let p2_27: i64 = mul.i64(p_21, 3i64)
    let q2_28: i64 = add.i64(q_22, r_23)
    let r2_29: i64 = add.i64(r_23, 2i64)
    in (p2_27, q2_28, r2_29)
  }
  let s_30: i64 = mul.i64(q_25, 2i64)
  let s_31: i64 = sub.i64(s_30, q_25)
  let s_32: i64 = add.i64(s_31, k_1)
  in (a_6, v_10, q_25)
}
-- expect:
entry "main" = main : ([]f64, i64) -> ([]f64, f64, i64)

fun main(xs_0: [?]f64, k_1: i64): ([?]f64, f64, i64) {
  let n_2: i64 = size(xs_0, 0)
  let a_6: [n_2]f64 = map(n_2, [xs_0], \(x_3: f64): f64 {
    let t_4: f64 = add.f64(x_3, 1.0f64)
    in t_4
  })
  let c_8: bool = lt.i64(0i64, n_2)
  let v_10: f64 = if c_8 : f64 then {
    let w_11: f64 = xs_0[0i64]
    in w_11
  } else {
    in 2.0f64
  }
  let (q_25: i64, r_26: i64) = loop (q_22: i64 = 0i64, r_23: i64 = 0i64) for i_20: i64 < k_1 {
    let q2_28: i64 = add.i64(q_22, r_23)
    let r2_29: i64 = add.i64(r_23, 2i64)
    in (q2_28, r2_29)
  }
  in (a_6, v_10, q_25)
}
