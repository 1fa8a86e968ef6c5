-- pass: copies
-- run: kept [1.0, 2.0] => [1.0, 2.0] 3.0
-- run: removed 3i64 => [5.0, 1.0, 2.0]
-- run: loop_kept [3.0, 4.0] => [4.0, 4.0] 7.0
-- `kept` needs its copy: the sum reads the original after the update.
-- `removed` does not: the map's result is dead after the copy, so the
-- update may take it over. `loop_kept` needs it too: the loop consumes
-- its parameter, and the original is summed after the loop.
entry "kept" = kept : ([]f64) -> ([]f64, f64)
entry "removed" = removed : (i64) -> []f64
entry "loop_kept" = loop_kept : ([]f64) -> ([]f64, f64)

fun kept(arg_0: [?]f64): ([?]f64, f64) {
  let a_1: [?]f64 = copy(arg_0)
  let upd_2: [?]f64 = a_1 with [0i64] = 1.0f64
  let n_3: i64 = size(arg_0, 0)
  let red_8: f64 = reduce(n_3, [arg_0], [0.0f64], \(x_5: f64, x_6: f64): f64 {
    let t_7: f64 = add.f64(x_5, x_6)
    in t_7
  })
  in (upd_2, red_8)
}

fun removed(arg_9: i64): [?]f64 {
  let iota_10: [arg_9]i64 = iota.i64(arg_9, 0i64, 1i64)
  let n_11: i64 = size(iota_10, 0)
  let map_15: [n_11]f64 = map(n_11, [iota_10], \(x_13: i64): f64 {
    let conv_14: f64 = cast.i64.f64(x_13)
    in conv_14
  })
  let a_16: [n_11]f64 = copy(map_15)
  let upd_17: [n_11]f64 = a_16 with [0i64] = 5.0f64
  in upd_17
}

fun loop_kept(xs_20: [?]f64): ([?]f64, f64) {
  let a_21: [?]f64 = copy(xs_20)
  let (res_22: [?]f64) = loop (acc_23: [?]f64 = a_21) for i_24: i64 < 1i64 {
    let v_25: f64 = acc_23[1i64]
    let upd_26: [?]f64 = acc_23 with [0i64] = v_25
    in (upd_26)
  }
  let n_27: i64 = size(xs_20, 0)
  let red_31: f64 = reduce(n_27, [xs_20], [0.0f64], \(x_28: f64, x_29: f64): f64 {
    let t_30: f64 = add.f64(x_28, x_29)
    in t_30
  })
  in (res_22, red_31)
}
-- expect:
entry "kept" = kept : ([]f64) -> ([]f64, f64)
entry "removed" = removed : (i64) -> []f64
entry "loop_kept" = loop_kept : ([]f64) -> ([]f64, f64)

fun kept(arg_0: [?]f64): ([?]f64, f64) {
  let a_1: [?]f64 = copy(arg_0)
  let upd_2: [?]f64 = a_1 with [0i64] = 1.0f64
  let n_3: i64 = size(arg_0, 0)
  let red_8: f64 = reduce(n_3, [arg_0], [0.0f64], \(x_5: f64, x_6: f64): f64 {
    let t_7: f64 = add.f64(x_5, x_6)
    in t_7
  })
  in (upd_2, red_8)
}

fun removed(arg_9: i64): [?]f64 {
  let iota_10: [arg_9]i64 = iota.i64(arg_9, 0i64, 1i64)
  let n_11: i64 = size(iota_10, 0)
  let map_15: [n_11]f64 = map(n_11, [iota_10], \(x_13: i64): f64 {
    let conv_14: f64 = cast.i64.f64(x_13)
    in conv_14
  })
  let a_16: [n_11]f64 = map_15
  let upd_17: [n_11]f64 = a_16 with [0i64] = 5.0f64
  in upd_17
}

fun loop_kept(xs_20: [?]f64): ([?]f64, f64) {
  let a_21: [?]f64 = copy(xs_20)
  let res_22: [?]f64 = loop (acc_23: [?]f64 = a_21) for i_24: i64 < 1i64 {
    let v_25: f64 = acc_23[1i64]
    let upd_26: [?]f64 = acc_23 with [0i64] = v_25
    in upd_26
  }
  let n_27: i64 = size(xs_20, 0)
  let red_31: f64 = reduce(n_27, [xs_20], [0.0f64], \(x_28: f64, x_29: f64): f64 {
    let t_30: f64 = add.f64(x_28, x_29)
    in t_30
  })
  in (res_22, red_31)
}
