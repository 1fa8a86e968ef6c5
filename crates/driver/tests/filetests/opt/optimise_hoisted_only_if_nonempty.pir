-- pass: optimise
-- run: main [1.0, 2.0] empty([0]f64) => empty([0]f64)
-- run: main [1.0, 2.0] [1.0] => error: out of bounds
-- xs[7] is out of bounds: an error for a non-empty map, nothing for an
-- empty one, before and after hoisting (the hoisted code is guarded).

entry "main" = main : ([]f64, []f64) -> []f64

fun main(xs_0: [?]f64, ys_1: [?]f64): [?]f64 {
  let n_2: i64 = size(ys_1, 0)
  let map_12: [n_2]f64 = map(n_2, [ys_1], \(x_3: f64): f64 {
    let n_4: i64 = size(xs_0, 0)
    let red_8: f64 = reduce_comm(n_4, [xs_0], [0.0f64], \(x_5: f64, x_6: f64): f64 {
      let t_7: f64 = add.f64(x_5, x_6)
      in t_7
    })
    let t_9: f64 = xs_0[7i64]
    let t_10: f64 = add.f64(red_8, t_9)
    let t_11: f64 = mul.f64(x_3, t_10)
    in t_11
  })
  in map_12
}
-- expect:
entry "main" = main : ([]f64, []f64) -> []f64

fun main(xs_0: [?]f64, ys_1: [?]f64): [?]f64 {
  let n_2: i64 = size(ys_1, 0)
  let n_4: i64 = size(xs_0, 0)
  let nonempty_16: bool = lt.i64(0i64, n_2)
  let t_10: f64 = if nonempty_16 : f64 then {
    let red_13: f64 = reduce_comm(n_4, [xs_0], [0.0f64], \(x_5: f64, x_6: f64): f64 {
      let t_7: f64 = add.f64(x_5, x_6)
      in t_7
    })
    let t_14: f64 = xs_0[7i64]
    let t_15: f64 = add.f64(red_13, t_14)
    in t_15
  } else {
    in 0.0f64
  }
  let map_12: [n_2]f64 = map(n_2, [ys_1], \(x_3: f64): f64 {
    let t_11: f64 = mul.f64(x_3, t_10)
    in t_11
  })
  in map_12
}
