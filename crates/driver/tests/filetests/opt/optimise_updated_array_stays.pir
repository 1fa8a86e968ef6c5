-- pass: optimise
-- run: main [1.0, 2.0] => [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
-- `map (\y -> replicate 3 0 with [0] = y) ys`: the replicate is invariant
-- but updated in place, so every iteration needs its own array.

entry "main" = main : ([]f64) -> [][]f64

fun main(ys_0: [?]f64): [?][3]f64 {
  let n_1: i64 = size(ys_0, 0)
  let map_5: [n_1][3]f64 = map(n_1, [ys_0], \(x_2: f64): [3]f64 {
    let t_3: [3]f64 = replicate(3i64, 0.0f64)
    let t_4: [3]f64 = t_3 with [0i64] = x_2
    in t_4
  })
  in map_5
}
-- expect:
entry "main" = main : ([]f64) -> [][]f64

fun main(ys_0: [?]f64): [?][3]f64 {
  let n_1: i64 = size(ys_0, 0)
  let map_5: [n_1][3]f64 = map(n_1, [ys_0], \(x_2: f64): [3]f64 {
    let t_3: [3]f64 = replicate(3i64, 0.0f64)
    let t_4: [3]f64 = t_3 with [0i64] = x_2
    in t_4
  })
  in map_5
}
