-- pass: fuse
-- run: main [1.0, 2.0] => 3.0 [2.0, 4.0]
-- A reduction and a map over the same array: one screma reading it once.

entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let red_6: f64 = reduce(n_1, [arg_0], [0.0f64], \(x_3: f64, x_4: f64): f64 {
    let t_5: f64 = add.f64(x_3, x_4)
    in t_5
  })
  let map_11: [n_1]f64 = map(n_1, [arg_0], \(x_9: f64): f64 {
    let t_10: f64 = mul.f64(x_9, 2.0f64)
    in t_10
  })
  in (red_6, map_11)
}
-- expect:
entry "main" = entry_main : ([]f64) -> (f64, []f64)

fun entry_main(arg_0: [?]f64): (f64, [?]f64) {
  let n_1: i64 = size(arg_0, 0)
  let (red_6: f64, map_11: [n_1]f64) = screma(n_1, [arg_0],
    reduce([0.0f64], \(x_3: f64, x_4: f64): f64 {
      let t_5: f64 = add.f64(x_3, x_4)
      in t_5
    }),
    \(x_12: f64): (f64, f64) {
      let t_10: f64 = mul.f64(x_12, 2.0f64)
      in (x_12, t_10)
    }
  )
  in (red_6, map_11)
}
