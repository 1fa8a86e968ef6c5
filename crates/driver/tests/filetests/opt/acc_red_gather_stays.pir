-- pass: simplify acc_red
-- run: grad [1.0, 2.0, 3.0] [1.0, 1.0, 1.0, 1.0, 1.0, 2.0] => [3.0, 5.0, 12.0]
-- run: grad [1.0, 2.0, 3.0] [0.5, -1.0, 2.0, 0.0, 4.0, -3.0]
-- The adjoint of a gather: the accumulator is updated at `[i % 3]`,
-- which depends on the only map, so no reduction applies, and each
-- element is updated twice, so the accumulator does not become a map
-- either: the `withacc` and its `upd` stay.
entry "grad" = entry_grad : ([]f64, []f64) -> []f64

fun entry_grad(arg_0: [?]f64, arg_1: [?]f64): [?]f64 {
  let x_14: [?]f64 = arg_0
  let iota_15: [6]i64 = iota.i64(6i64, 0i64, 1i64)
  let map_21: [6]f64 = map(6i64, [iota_15], \(x_16: i64): f64 {
    let t_17: i64 = mod.i64(x_16, 3i64)
    let idx_18: f64 = x_14[t_17]
    let conv_19: f64 = cast.i64.f64(x_16)
    let t_20: f64 = mul.f64(idx_18, conv_19)
    in t_20
  })
  let n_22: i64 = size(arg_1, 0)
  let t_23: bool = eq.i64(n_22, 6i64)
  let () = assert(t_23, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let n_24: i64 = size(x_14, 0)
  let t_25: [n_24]f64 = replicate(n_24, 0.0f64)
  let withacc_42: [n_24]f64 = withacc(
    {[n_24], [t_25], [0.0f64], \(x_26: f64, x_27: f64): f64 {
      let t_28: f64 = add.f64(x_26, x_27)
      in t_28
    }},
    \(x_29: acc([n_24], f64)): acc([n_24], f64) {
      let adj_41: acc([n_24], f64) = map(6i64, [iota_15, arg_1, x_29], \(x_30: i64, adj_31: f64, acc_32: acc([n_24], f64)): acc([n_24], f64) {
        let t_33: i64 = mod.i64(x_30, 3i64)
        let idx_34: f64 = x_14[t_33]
        let conv_35: f64 = cast.i64.f64(x_30)
        let t_36: f64 = mul.f64(idx_34, conv_35)
        let t_37: f64 = mul.f64(conv_35, adj_31)
        let t_38: f64 = mul.f64(idx_34, adj_31)
        let t_39: i64 = cast.f64.i64(t_38)
        let acc_40: acc([n_24], f64) = upd(acc_32, [t_33], [t_37])
        in acc_40
      })
      in adj_41
    }
  )
  let ad_12: [?]f64 = map_21
  let ad_13: [?]f64 = withacc_42
  in ad_13
}
-- expect:
entry "grad" = entry_grad : ([]f64, []f64) -> []f64

fun entry_grad(arg_0: [?]f64, arg_1: [?]f64): [?]f64 {
  let iota_15: [6]i64 = iota.i64(6i64, 0i64, 1i64)
  let n_22: i64 = size(arg_1, 0)
  let t_23: bool = eq.i64(n_22, 6i64)
  let () = assert(t_23, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let n_24: i64 = size(arg_0, 0)
  let t_25: [n_24]f64 = replicate(n_24, 0.0f64)
  let withacc_42: [n_24]f64 = withacc(
    {[n_24], [t_25], [0.0f64], \(x_26: f64, x_27: f64): f64 {
      let t_28: f64 = add.f64(x_26, x_27)
      in t_28
    }},
    \(x_29: acc([n_24], f64)): acc([n_24], f64) {
      let adj_41: acc([n_24], f64) = map(6i64, [iota_15, arg_1, x_29], \(x_30: i64, adj_31: f64, acc_32: acc([n_24], f64)): acc([n_24], f64) {
        let t_33: i64 = mod.i64(x_30, 3i64)
        let conv_35: f64 = cast.i64.f64(x_30)
        let t_37: f64 = mul.f64(conv_35, adj_31)
        let acc_40: acc([n_24], f64) = upd(acc_32, [t_33], [t_37])
        in acc_40
      })
      in adj_41
    }
  )
  in withacc_42
}
