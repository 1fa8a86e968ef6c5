-- pass: simplify
-- run: main [1.0, 2.0] => [5.0, 2.0] 4i64
-- Copies of variables and constants are substituted away, also in types
-- and in an array that is then updated in place (the copy was an alias,
-- so the original was consumed already).

entry "main" = main : (*[]f64) -> ([]f64, i64)

fun main(xs_0: [?]f64): ([?]f64, i64) {
  let n_1: i64 = 2i64
  let ys_2: [?]f64 = xs_0
  let m_3: i64 = add.i64(n_1, n_1)
  let zs_4: [?]f64 = ys_2 with [0i64] = 5.0f64
  let k_5: i64 = m_3
  in (zs_4, k_5)
}
-- expect:
entry "main" = main : (*[]f64) -> ([]f64, i64)

fun main(xs_0: [?]f64): ([?]f64, i64) {
  let zs_4: [?]f64 = xs_0 with [0i64] = 5.0f64
  in (zs_4, 4i64)
}
