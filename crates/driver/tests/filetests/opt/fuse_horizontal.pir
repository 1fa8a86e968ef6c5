-- pass: fuse
-- run: main [1.0, 2.0, 3.0] [4.0, -1.0, 0.5] => 6.0 4.0 [4.0, -2.0, 1.5]
-- run: main [1.0, 2.0] [4.0] => error: size mismatch
-- Two reductions and a map of the same width (map2 asserts that xs and ys
-- have the same length) become one screma; xs, read by two of them, is
-- passed once.

entry "main" = entry_main : ([]f64, []f64) -> (f64, f64, []f64)

fun entry_main(arg_0: [?]f64, arg_1: [?]f64): (f64, f64, [?]f64) {
  let n_2: i64 = size(arg_0, 0)
  let red_7: f64 = reduce(n_2, [arg_0], [0.0f64], \(x_4: f64, x_5: f64): f64 {
    let t_6: f64 = add.f64(x_4, x_5)
    in t_6
  })
  let t_8: f64 = neg.f64(f64.inf)
  let n_9: i64 = size(arg_1, 0)
  let red_14: f64 = reduce(n_9, [arg_1], [t_8], \(x_11: f64, x_12: f64): f64 {
    let t_13: f64 = max.f64(x_11, x_12)
    in t_13
  })
  let t_17: bool = eq.i64(n_2, n_9)
  let () = assert(t_17, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let map_30: [n_2]f64 = map(n_2, [arg_0, arg_1], \(x_27: f64, x_28: f64): f64 {
    let t_29: f64 = mul.f64(x_27, x_28)
    in t_29
  })
  in (red_7, red_14, map_30)
}
-- expect:
entry "main" = entry_main : ([]f64, []f64) -> (f64, f64, []f64)

fun entry_main(arg_0: [?]f64, arg_1: [?]f64): (f64, f64, [?]f64) {
  let n_2: i64 = size(arg_0, 0)
  let t_8: f64 = neg.f64(f64.inf)
  let n_9: i64 = size(arg_1, 0)
  let t_17: bool = eq.i64(n_2, n_9)
  let () = assert(t_17, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let (red_7: f64, red_14: f64, map_30: [n_2]f64) = screma(n_2, [arg_0, arg_1],
    reduce([0.0f64], \(x_4: f64, x_5: f64): f64 {
      let t_6: f64 = add.f64(x_4, x_5)
      in t_6
    }),
    reduce([t_8], \(x_11: f64, x_12: f64): f64 {
      let t_13: f64 = max.f64(x_11, x_12)
      in t_13
    }),
    \(x_32: f64, x_31: f64): (f64, f64, f64) {
      let t_29: f64 = mul.f64(x_32, x_31)
      in (x_32, x_31, t_29)
    }
  )
  in (red_7, red_14, map_30)
}
