-- pass: acc_map
-- run: rowsums [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] => [3.0, 7.0, 11.0]
-- run: ones [[1.0, 2.0], [3.0, 4.0]] => [4.0, 8.0]
-- run: products [1.0, -0.0] [2.0, 3.0] => [2.0, -0.0]
-- `rowsums`: each element of the accumulator (zeros, `+`) is updated
-- once, at the iota element of its row, with a `+`-reduction: a map.
-- `ones` starts from ones, not the neutral element: it stays. So does
-- `products`, whose value is a product, which may be -0 (0 + -0 = 0).
entry "rowsums" = rowsums : ([][]f64) -> []f64
entry "ones" = ones : ([][]f64) -> []f64
entry "products" = products : ([]f64, []f64) -> []f64

fun rowsums(xss_0: [?][?]f64): [?]f64 {
  let n_1: i64 = size(xss_0, 0)
  let m_2: i64 = size(xss_0, 1)
  let zs_3: [n_1]f64 = replicate(n_1, 0.0f64)
  let is_4: [n_1]i64 = iota.i64(n_1, 0i64, 1i64)
  let r_5: [n_1]f64 = withacc(
    {[n_1], [zs_3], [0.0f64], \(x_6: f64, y_7: f64): f64 {
      let t_8: f64 = add.f64(x_6, y_7)
      in t_8
    }},
    \(acc_9: acc([n_1], f64)): acc([n_1], f64) {
      let a_10: acc([n_1], f64) = map(n_1, [xss_0, is_4, acc_9], \(xs_11: [?]f64, i_12: i64, c_13: acc([n_1], f64)): acc([n_1], f64) {
        let s_14: f64 = reduce(m_2, [xs_11], [0.0f64], \(u_15: f64, v_16: f64): f64 {
          let w_17: f64 = add.f64(u_15, v_16)
          in w_17
        })
        let c_18: acc([n_1], f64) = upd(c_13, [i_12], [s_14])
        in c_18
      })
      in a_10
    }
  )
  in r_5
}

fun ones(xss_20: [?][?]f64): [?]f64 {
  let n_21: i64 = size(xss_20, 0)
  let m_22: i64 = size(xss_20, 1)
  let zs_23: [n_21]f64 = replicate(n_21, 1.0f64)
  let is_24: [n_21]i64 = iota.i64(n_21, 0i64, 1i64)
  let r_25: [n_21]f64 = withacc(
    {[n_21], [zs_23], [0.0f64], \(x_26: f64, y_27: f64): f64 {
      let t_28: f64 = add.f64(x_26, y_27)
      in t_28
    }},
    \(acc_29: acc([n_21], f64)): acc([n_21], f64) {
      let a_30: acc([n_21], f64) = map(n_21, [xss_20, is_24, acc_29], \(xs_31: [?]f64, i_32: i64, c_33: acc([n_21], f64)): acc([n_21], f64) {
        let s_34: f64 = reduce(m_22, [xs_31], [0.0f64], \(u_35: f64, v_36: f64): f64 {
          let w_37: f64 = add.f64(u_35, v_36)
          in w_37
        })
        let c_38: acc([n_21], f64) = upd(c_33, [i_32], [s_34])
        in c_38
      })
      in a_30
    }
  )
  in r_25
}

fun products(xs_40: [?]f64, ys_41: [?]f64): [?]f64 {
  let n_42: i64 = size(xs_40, 0)
  let zs_43: [n_42]f64 = replicate(n_42, 0.0f64)
  let is_44: [n_42]i64 = iota.i64(n_42, 0i64, 1i64)
  let r_45: [n_42]f64 = withacc(
    {[n_42], [zs_43], [0.0f64], \(x_46: f64, y_47: f64): f64 {
      let t_48: f64 = add.f64(x_46, y_47)
      in t_48
    }},
    \(acc_49: acc([n_42], f64)): acc([n_42], f64) {
      let a_50: acc([n_42], f64) = map(n_42, [xs_40, ys_41, is_44, acc_49], \(x_51: f64, y_52: f64, i_53: i64, c_54: acc([n_42], f64)): acc([n_42], f64) {
        let p_55: f64 = mul.f64(x_51, y_52)
        let c_56: acc([n_42], f64) = upd(c_54, [i_53], [p_55])
        in c_56
      })
      in a_50
    }
  )
  in r_45
}
-- expect:
entry "rowsums" = rowsums : ([][]f64) -> []f64
entry "ones" = ones : ([][]f64) -> []f64
entry "products" = products : ([]f64, []f64) -> []f64

fun rowsums(xss_0: [?][?]f64): [?]f64 {
  let n_1: i64 = size(xss_0, 0)
  let m_2: i64 = size(xss_0, 1)
  let zs_3: [n_1]f64 = replicate(n_1, 0.0f64)
  let is_4: [n_1]i64 = iota.i64(n_1, 0i64, 1i64)
  let r_5: [n_1]f64 = map(n_1, [xss_0, is_4], \(xs_11: [?]f64, i_12: i64): f64 {
    let s_14: f64 = reduce(m_2, [xs_11], [0.0f64], \(u_15: f64, v_16: f64): f64 {
      let w_17: f64 = add.f64(u_15, v_16)
      in w_17
    })
    in s_14
  })
  in r_5
}

fun ones(xss_20: [?][?]f64): [?]f64 {
  let n_21: i64 = size(xss_20, 0)
  let m_22: i64 = size(xss_20, 1)
  let zs_23: [n_21]f64 = replicate(n_21, 1.0f64)
  let is_24: [n_21]i64 = iota.i64(n_21, 0i64, 1i64)
  let r_25: [n_21]f64 = withacc(
    {[n_21], [zs_23], [0.0f64], \(x_26: f64, y_27: f64): f64 {
      let t_28: f64 = add.f64(x_26, y_27)
      in t_28
    }},
    \(acc_29: acc([n_21], f64)): acc([n_21], f64) {
      let a_30: acc([n_21], f64) = map(n_21, [xss_20, is_24, acc_29], \(xs_31: [?]f64, i_32: i64, c_33: acc([n_21], f64)): acc([n_21], f64) {
        let s_34: f64 = reduce(m_22, [xs_31], [0.0f64], \(u_35: f64, v_36: f64): f64 {
          let w_37: f64 = add.f64(u_35, v_36)
          in w_37
        })
        let c_38: acc([n_21], f64) = upd(c_33, [i_32], [s_34])
        in c_38
      })
      in a_30
    }
  )
  in r_25
}

fun products(xs_40: [?]f64, ys_41: [?]f64): [?]f64 {
  let n_42: i64 = size(xs_40, 0)
  let zs_43: [n_42]f64 = replicate(n_42, 0.0f64)
  let is_44: [n_42]i64 = iota.i64(n_42, 0i64, 1i64)
  let r_45: [n_42]f64 = withacc(
    {[n_42], [zs_43], [0.0f64], \(x_46: f64, y_47: f64): f64 {
      let t_48: f64 = add.f64(x_46, y_47)
      in t_48
    }},
    \(acc_49: acc([n_42], f64)): acc([n_42], f64) {
      let a_50: acc([n_42], f64) = map(n_42, [xs_40, ys_41, is_44, acc_49], \(x_51: f64, y_52: f64, i_53: i64, c_54: acc([n_42], f64)): acc([n_42], f64) {
        let p_55: f64 = mul.f64(x_51, y_52)
        let c_56: acc([n_42], f64) = upd(c_54, [i_53], [p_55])
        in c_56
      })
      in a_50
    }
  )
  in r_45
}
