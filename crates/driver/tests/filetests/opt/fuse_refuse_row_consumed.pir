-- pass: fuse
-- run: main [[1.0, 2.0], [3.0, 4.0]] => [[1.0, 4.0], [1.0, 8.0]]
-- Refused: the consumer updates its row in place, and the row would be
-- a value of the producer's lambda.

entry "main" = entry_main : ([][]f64) -> [][]f64

fun entry_main(arg_0: [?][?]f64): [?][?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_9: [n_1][?]f64 = map(n_1, [arg_0], \(x_3: [?]f64): [?]f64 {
    let n_4: i64 = size(x_3, 0)
    let map_8: [n_4]f64 = map(n_4, [x_3], \(x_6: f64): f64 {
      let t_7: f64 = mul.f64(x_6, 2.0f64)
      in t_7
    })
    in map_8
  })
  let n_10: i64 = size(map_9, 0)
  let map_14: [n_10][?]f64 = map(n_10, [map_9], \(x_12: [?]f64): [?]f64 {
    let upd_13: [?]f64 = x_12 with [0i64] = 1.0f64
    in upd_13
  })
  in map_14
}
-- expect:
entry "main" = entry_main : ([][]f64) -> [][]f64

fun entry_main(arg_0: [?][?]f64): [?][?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_9: [n_1][?]f64 = map(n_1, [arg_0], \(x_3: [?]f64): [?]f64 {
    let n_4: i64 = size(x_3, 0)
    let map_8: [n_4]f64 = map(n_4, [x_3], \(x_6: f64): f64 {
      let t_7: f64 = mul.f64(x_6, 2.0f64)
      in t_7
    })
    in map_8
  })
  let n_10: i64 = n_1
  let map_14: [n_10][?]f64 = map(n_10, [map_9], \(x_12: [?]f64): [?]f64 {
    let upd_13: [?]f64 = x_12 with [0i64] = 1.0f64
    in upd_13
  })
  in map_14
}
