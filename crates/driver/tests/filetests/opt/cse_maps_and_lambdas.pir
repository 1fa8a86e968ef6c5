-- pass: cse
-- run: main [1i32, 2i32] => [2i32, 4i32] [2i32, 4i32]
-- The repeated size is one, and so is the repeat inside the lambda. The
-- two maps stay apart: CSE compares lambdas by their names, and these
-- bind different ones.

entry "main" = main : ([]i32) -> ([]i32, []i32)

fun main(xs_0: [?]i32): ([?]i32, [?]i32) {
  let n_1: i64 = size(xs_0, 0)
  let a_4: [n_1]i32 = map(n_1, [xs_0], \(x_2: i32): i32 {
    let t_3: i32 = add.i32(x_2, x_2)
    in t_3
  })
  let n_5: i64 = size(xs_0, 0)
  let b_8: [n_5]i32 = map(n_5, [xs_0], \(x_6: i32): i32 {
    let t_7: i32 = add.i32(x_6, x_6)
    let t_9: i32 = add.i32(x_6, x_6)
    in t_9
  })
  in (a_4, b_8)
}
-- expect:
entry "main" = main : ([]i32) -> ([]i32, []i32)

fun main(xs_0: [?]i32): ([?]i32, [?]i32) {
  let n_1: i64 = size(xs_0, 0)
  let a_4: [n_1]i32 = map(n_1, [xs_0], \(x_2: i32): i32 {
    let t_3: i32 = add.i32(x_2, x_2)
    in t_3
  })
  let b_8: [n_1]i32 = map(n_1, [xs_0], \(x_6: i32): i32 {
    let t_7: i32 = add.i32(x_6, x_6)
    in t_7
  })
  in (a_4, b_8)
}
