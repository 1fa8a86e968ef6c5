-- pass: fuse
-- run: main [[1.0, 2.0], [3.0, 4.0]] 3i64 => [5.0, 25.0] 15.0
-- Fusion inside a map's lambda and inside a loop body (a map into a
-- reduction in each).

entry "main" = entry_main : ([][]f64, i64) -> ([]f64, f64)

fun entry_main(arg_0: [?][?]f64, arg_1: i64): ([?]f64, f64) {
  let n_2: i64 = size(arg_0, 0)
  let map_16: [n_2]f64 = map(n_2, [arg_0], \(x_4: [?]f64): f64 {
    let n_5: i64 = size(x_4, 0)
    let map_9: [n_5]f64 = map(n_5, [x_4], \(x_7: f64): f64 {
      let t_8: f64 = mul.f64(x_7, x_7)
      in t_8
    })
    let n_10: i64 = size(map_9, 0)
    let red_15: f64 = reduce(n_10, [map_9], [0.0f64], \(x_12: f64, x_13: f64): f64 {
      let t_14: f64 = add.f64(x_12, x_13)
      in t_14
    })
    in red_15
  })
  let loopres_33: f64 = loop (loop_17: f64 = 0.0f64) for i_18: i64 < arg_1 {
    let idx_19: [?]f64 = arg_0[0i64]
    let n_20: i64 = size(idx_19, 0)
    let map_25: [n_20]f64 = map(n_20, [idx_19], \(x_22: f64): f64 {
      let conv_23: f64 = cast.i64.f64(i_18)
      let t_24: f64 = add.f64(x_22, conv_23)
      in t_24
    })
    let n_26: i64 = size(map_25, 0)
    let red_31: f64 = reduce(n_26, [map_25], [0.0f64], \(x_28: f64, x_29: f64): f64 {
      let t_30: f64 = add.f64(x_28, x_29)
      in t_30
    })
    let t_32: f64 = add.f64(loop_17, red_31)
    in t_32
  }
  in (map_16, loopres_33)
}
-- expect:
entry "main" = entry_main : ([][]f64, i64) -> ([]f64, f64)

fun entry_main(arg_0: [?][?]f64, arg_1: i64): ([?]f64, f64) {
  let n_2: i64 = size(arg_0, 0)
  let map_16: [n_2]f64 = map(n_2, [arg_0], \(x_4: [?]f64): f64 {
    let n_5: i64 = size(x_4, 0)
    let n_10: i64 = n_5
    let red_15: f64 = screma(n_10, [x_4],
      reduce([0.0f64], \(x_12: f64, x_13: f64): f64 {
        let t_14: f64 = add.f64(x_12, x_13)
        in t_14
      }),
      \(x_7: f64): f64 {
        let t_8: f64 = mul.f64(x_7, x_7)
        in t_8
      }
    )
    in red_15
  })
  let loopres_33: f64 = loop (loop_17: f64 = 0.0f64) for i_18: i64 < arg_1 {
    let idx_19: [?]f64 = arg_0[0i64]
    let n_20: i64 = size(idx_19, 0)
    let n_26: i64 = n_20
    let red_31: f64 = screma(n_26, [idx_19],
      reduce([0.0f64], \(x_28: f64, x_29: f64): f64 {
        let t_30: f64 = add.f64(x_28, x_29)
        in t_30
      }),
      \(x_22: f64): f64 {
        let conv_23: f64 = cast.i64.f64(i_18)
        let t_24: f64 = add.f64(x_22, conv_23)
        in t_24
      }
    )
    let t_32: f64 = add.f64(loop_17, red_31)
    in t_32
  }
  in (map_16, loopres_33)
}
