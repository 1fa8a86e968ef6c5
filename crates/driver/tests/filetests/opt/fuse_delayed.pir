-- pass: fuse
-- run: main [1.0, 2.0] => [3.0, 5.0] 2.0
-- run: main empty([0]f64) => error: out of bounds
-- The indexing between producer and consumer depends on the producer: it
-- moves after the fused map, which returns the producer's array too.

entry "main" = entry_main : ([]f64) -> ([]f64, f64)

fun entry_main(arg_0: [?]f64): ([?]f64, f64) {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let idx_6: f64 = map_5[0i64]
  let n_7: i64 = size(map_5, 0)
  let map_11: [n_7]f64 = map(n_7, [map_5], \(x_9: f64): f64 {
    let t_10: f64 = add.f64(x_9, 1.0f64)
    in t_10
  })
  in (map_11, idx_6)
}
-- expect:
entry "main" = entry_main : ([]f64) -> ([]f64, f64)

fun entry_main(arg_0: [?]f64): ([?]f64, f64) {
  let n_1: i64 = size(arg_0, 0)
  let n_7: i64 = n_1
  let (map_11: [n_7]f64, map_5: [n_1]f64) = map(n_7, [arg_0], \(x_3: f64): (f64, f64) {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    let t_10: f64 = add.f64(t_4, 1.0f64)
    in (t_10, t_4)
  })
  let idx_6: f64 = map_5[0i64]
  in (map_11, idx_6)
}
