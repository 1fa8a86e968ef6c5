-- pass: fuse
-- run: main [1.0, 2.0] => [3.0, 5.0]
-- run: main [-1.0, 2.0] => error: Assertion is false
-- Refused: an assertion depending on the producer sits between it and
-- the consumer, and the consumer may rely on it.

entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let idx_6: f64 = map_5[0i64]
  let t_7: bool = gt.f64(idx_6, 0.0f64)
  let () = assert(t_7, "Assertion is false")
  let n_8: i64 = size(map_5, 0)
  let map_12: [n_8]f64 = map(n_8, [map_5], \(x_10: f64): f64 {
    let t_11: f64 = add.f64(x_10, 1.0f64)
    in t_11
  })
  in map_12
}
-- expect:
entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let idx_6: f64 = map_5[0i64]
  let t_7: bool = gt.f64(idx_6, 0.0f64)
  let () = assert(t_7, "Assertion is false")
  let n_8: i64 = n_1
  let map_12: [n_8]f64 = map(n_8, [map_5], \(x_10: f64): f64 {
    let t_11: f64 = add.f64(x_10, 1.0f64)
    in t_11
  })
  in map_12
}
