-- pass: simplify
-- run: main [1.0, 2.0, 3.5] => 6.5
-- run: main empty([0]f64) => 0.0
-- Every size read three times and a dead computation: CSE leaves one
-- `size`, both assertions then check `n == n` and go, and so does the
-- unused multiplication.

entry "main" = main : ([]f64) -> f64

fun main(xs_0: [?]f64): f64 {
  let n_1: i64 = size(xs_0, 0)
  let n_2: i64 = size(xs_0, 0)
  let n_3: i64 = size(xs_0, 0)
  let t_4: bool = eq.i64(n_1, n_2)
  let () = assert(t_4, "sizes differ")
  let t_5: bool = eq.i64(n_1, n_3)
  let () = assert(t_5, "sizes differ again")
  let t_6: f64 = mul.f64(2.0f64, 3.0f64)
  let n_7: i64 = size(xs_0, 0)
  let red_11: f64 = reduce_comm(n_7, [xs_0], [0.0f64], \(x_8: f64, x_9: f64): f64 {
    let t_10: f64 = add.f64(x_8, x_9)
    in t_10
  })
  in red_11
}
-- expect:
entry "main" = main : ([]f64) -> f64

fun main(xs_0: [?]f64): f64 {
  let n_1: i64 = size(xs_0, 0)
  let red_11: f64 = reduce_comm(n_1, [xs_0], [0.0f64], \(x_8: f64, x_9: f64): f64 {
    let t_10: f64 = add.f64(x_8, x_9)
    in t_10
  })
  in red_11
}
