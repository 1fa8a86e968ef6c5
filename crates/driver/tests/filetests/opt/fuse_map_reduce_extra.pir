-- pass: fuse
-- run: main [1.0, 2.0, 3.0] => 12.0 [2.0, 4.0, 6.0]
-- A map into a reduce while its result is returned too: one screma with a
-- reduction and the map's array as an extra mapped result.

entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let n_6: i64 = size(map_5, 0)
  let red_11: f64 = reduce(n_6, [map_5], [0.0f64], \(x_8: f64, x_9: f64): f64 {
    let t_10: f64 = add.f64(x_8, x_9)
    in t_10
  })
  in (red_11, map_5)
}
-- expect:
entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let n_6: i64 = n_1
  let (red_11: f64, map_5: [n_1]f64) = screma(n_6, [arg_0],
    reduce([0.0f64], \(x_8: f64, x_9: f64): f64 {
      let t_10: f64 = add.f64(x_8, x_9)
      in t_10
    }),
    \(x_3: f64): (f64, f64) {
      let t_4: f64 = mul.f64(x_3, 2.0f64)
      in (t_4, t_4)
    }
  )
  in (red_11, map_5)
}
