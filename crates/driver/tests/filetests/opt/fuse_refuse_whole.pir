-- pass: fuse
-- run: main [1.0, 2.0, 3.0] => [6.0, 10.0, 8.0]
-- Refused: the consumer reads the producer's result as a whole array
-- (not row by row).

entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let n_6: i64 = size(map_5, 0)
  let iota_7: [n_6]i64 = iota.i64(n_6, 0i64, 1i64)
  let n_8: i64 = size(iota_7, 0)
  let map_17: [n_8]f64 = map(n_8, [iota_7], \(x_10: i64): f64 {
    let idx_11: f64 = map_5[x_10]
    let t_12: i64 = add.i64(x_10, 1i64)
    let t_14: i64 = mod.i64(t_12, n_6)
    let idx_15: f64 = map_5[t_14]
    let t_16: f64 = add.f64(idx_11, idx_15)
    in t_16
  })
  in map_17
}
-- expect:
entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let n_6: i64 = n_1
  let iota_7: [n_6]i64 = iota.i64(n_6, 0i64, 1i64)
  let n_8: i64 = size(iota_7, 0)
  let map_17: [n_8]f64 = map(n_8, [iota_7], \(x_10: i64): f64 {
    let idx_11: f64 = map_5[x_10]
    let t_12: i64 = add.i64(x_10, 1i64)
    let t_14: i64 = mod.i64(t_12, n_6)
    let idx_15: f64 = map_5[t_14]
    let t_16: f64 = add.f64(idx_11, idx_15)
    in t_16
  })
  in map_17
}
