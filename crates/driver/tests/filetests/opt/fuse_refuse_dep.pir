-- pass: fuse
-- run: main [1.0, 2.0] => 3.0 [7.0, 8.0]
-- Refused: the map does not read the reduction's value, but depends on it
-- through the statement between them.

entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let red_6: f64 = reduce(n_1, [arg_0], [0.0f64], \(x_3: f64, x_4: f64): f64 {
    let t_5: f64 = add.f64(x_3, x_4)
    in t_5
  })
  let t_7: f64 = mul.f64(red_6, 2.0f64)
  let map_12: [n_1]f64 = map(n_1, [arg_0], \(x_10: f64): f64 {
    let t_11: f64 = add.f64(x_10, t_7)
    in t_11
  })
  in (red_6, map_12)
}
-- expect:
entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let red_6: f64 = reduce(n_1, [arg_0], [0.0f64], \(x_3: f64, x_4: f64): f64 {
    let t_5: f64 = add.f64(x_3, x_4)
    in t_5
  })
  let t_7: f64 = mul.f64(red_6, 2.0f64)
  let map_12: [n_1]f64 = map(n_1, [arg_0], \(x_10: f64): f64 {
    let t_11: f64 = add.f64(x_10, t_7)
    in t_11
  })
  in (red_6, map_12)
}
