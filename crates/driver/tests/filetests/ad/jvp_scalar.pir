-- pass: differentiate
-- run: main 2.0 => 4.0 4.0
-- jvp of x*x: the product rule gives ẋ·x + x·ẋ, and with the seed ẋ = 1
-- a constant, the multiplications by it fold away, leaving x + x.

entry "main" = main : (f64) -> (f64, f64)

fun main(x_0: f64): (f64, f64) {
  let (y_1: f64, dy_2: f64) = jvp(\(a_3: f64): f64 {
    let t_4: f64 = mul.f64(a_3, a_3)
    in t_4
  }, [x_0], [1.0f64])
  in (y_1, dy_2)
}
-- expect:
entry "main" = main : (f64) -> (f64, f64)

fun main(x_0: f64): (f64, f64) {
  let a_3: f64 = x_0
  let t_4: f64 = mul.f64(a_3, a_3)
  let t_5: f64 = add.f64(a_3, a_3)
  let y_1: f64 = t_4
  let dy_2: f64 = t_5
  in (y_1, dy_2)
}
