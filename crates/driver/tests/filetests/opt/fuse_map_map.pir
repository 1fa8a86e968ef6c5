-- pass: fuse
-- run: main [1.0, 2.0, 3.0] => [3.0, 5.0, 7.0]
-- run: main empty([0]f64) => empty([0]f64)
-- A map into a map: one map whose lambda composes the two.

entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let n_6: i64 = size(map_5, 0)
  let map_10: [n_6]f64 = map(n_6, [map_5], \(x_8: f64): f64 {
    let t_9: f64 = add.f64(x_8, 1.0f64)
    in t_9
  })
  in map_10
}
-- expect:
entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let n_6: i64 = n_1
  let map_10: [n_6]f64 = map(n_6, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    let t_9: f64 = add.f64(t_4, 1.0f64)
    in t_9
  })
  in map_10
}
