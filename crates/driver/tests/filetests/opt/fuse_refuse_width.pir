-- pass: fuse
-- run: main [1.0, 2.0] [3.0] => 3.0 3.0
-- Refused: nothing says the two widths are equal.

entry "main" = entry_main : ([]f64, []f64) -> (f64, f64)

fun entry_main(arg_0: [?]f64, arg_1: [?]f64): (f64, f64) {
  let n_2: i64 = size(arg_0, 0)
  let red_7: f64 = reduce(n_2, [arg_0], [0.0f64], \(x_4: f64, x_5: f64): f64 {
    let t_6: f64 = add.f64(x_4, x_5)
    in t_6
  })
  let n_8: i64 = size(arg_1, 0)
  let red_13: f64 = reduce(n_8, [arg_1], [0.0f64], \(x_10: f64, x_11: f64): f64 {
    let t_12: f64 = add.f64(x_10, x_11)
    in t_12
  })
  in (red_7, red_13)
}
-- expect:
entry "main" = entry_main : ([]f64, []f64) -> (f64, f64)

fun entry_main(arg_0: [?]f64, arg_1: [?]f64): (f64, f64) {
  let n_2: i64 = size(arg_0, 0)
  let red_7: f64 = reduce(n_2, [arg_0], [0.0f64], \(x_4: f64, x_5: f64): f64 {
    let t_6: f64 = add.f64(x_4, x_5)
    in t_6
  })
  let n_8: i64 = size(arg_1, 0)
  let red_13: f64 = reduce(n_8, [arg_1], [0.0f64], \(x_10: f64, x_11: f64): f64 {
    let t_12: f64 = add.f64(x_10, x_11)
    in t_12
  })
  in (red_7, red_13)
}
