-- pass: fuse
-- run: main [1.0, 2.0] => [3.0, 6.0]
-- A map into a map that also reads the producer's input: xs is passed once.

entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    in t_4
  })
  let n_7: i64 = size(map_5, 0)
  let t_8: bool = eq.i64(n_1, n_7)
  let () = assert(t_8, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let map_21: [n_1]f64 = map(n_1, [arg_0, map_5], \(x_18: f64, x_19: f64): f64 {
    let t_20: f64 = add.f64(x_18, x_19)
    in t_20
  })
  in map_21
}
-- expect:
entry "main" = entry_main : ([]f64) -> []f64

fun entry_main(arg_0: [?]f64): [?]f64 {
  let n_1: i64 = size(arg_0, 0)
  let n_7: i64 = n_1
  let t_8: bool = eq.i64(n_1, n_7)
  let () = assert(t_8, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
  let map_21: [n_1]f64 = map(n_1, [arg_0], \(x_3: f64): f64 {
    let t_4: f64 = mul.f64(x_3, 2.0f64)
    let t_20: f64 = add.f64(x_3, t_4)
    in t_20
  })
  in map_21
}
