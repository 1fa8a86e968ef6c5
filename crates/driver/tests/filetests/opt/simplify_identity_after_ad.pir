-- pass: simplify_after_ad
-- run: main 2.5f64 => 2.5f64 0.0f64
-- run: main -0.0f64 => 0.0f64 0.0f64
-- After AD, adding +0.0 is dropped too (only the sign of a zero result
-- can differ: -0.0 + 0.0 is 0.0), but multiplying by 0.0 still stays.

entry "main" = main : (f64) -> (f64, f64)

fun main(x_0: f64): (f64, f64) {
  let a_1: f64 = add.f64(0.0f64, x_0)
  let b_2: f64 = add.f64(a_1, 0.0f64)
  let c_3: f64 = mul.f64(b_2, 0.0f64)
  in (b_2, c_3)
}
-- expect:
entry "main" = main : (f64) -> (f64, f64)

fun main(x_0: f64): (f64, f64) {
  let c_3: f64 = mul.f64(x_0, 0.0f64)
  in (x_0, c_3)
}
