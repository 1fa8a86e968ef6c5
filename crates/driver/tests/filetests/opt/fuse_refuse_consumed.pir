-- pass: fuse
-- run: main [1.0, 2.0] => [9.0, 6.0] [7.0, 2.0]
-- Refused: the producer's input is updated in place between the producer
-- and its consumer, so the producer cannot be delayed.

entry "main" = entry_main : ([]f64) -> ([]f64, []f64)

fun entry_main(arg_0: [?]f64): ([?]f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let upd_6: [?]f64 = arg_0 with [0i64] = 7.0f64
  let n_7: i64 = size(map_5, 0)
  let n_8: i64 = size(upd_6, 0)
  let t_9: bool = eq.i64(n_7, n_8)
  let () = assert(t_9, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let map_22: [n_7]f64 = map(n_7, [map_5, upd_6], \(x_19: f64, x_20: f64): f64 {
    let t_21: f64 = add.f64(x_19, x_20)
    in t_21
  })
  in (map_22, upd_6)
}
-- expect:
entry "main" = entry_main : ([]f64) -> ([]f64, []f64)

fun entry_main(arg_0: [?]f64): ([?]f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let upd_6: [?]f64 = arg_0 with [0i64] = 7.0f64
  let n_7: i64 = n_1
  let n_8: i64 = size(upd_6, 0)
  let t_9: bool = eq.i64(n_7, n_8)
  let () = assert(t_9, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let map_22: [n_7]f64 = map(n_7, [map_5, upd_6], \(x_19: f64, x_20: f64): f64 {
    let t_21: f64 = add.f64(x_19, x_20)
    in t_21
  })
  in (map_22, upd_6)
}
